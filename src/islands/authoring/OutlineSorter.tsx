/**
 * The course editor's outline ordered by drag and drop or by keyboard (@dnd-kit: Space picks up, the
 * arrow keys move, Space drops, Escape cancels), with what happens read out to screen readers. Modules
 * move among modules; a lesson moves inside its module or into another one (onto a lesson's place, or
 * into an empty module). Each drop saves the whole outline to the draft
 * (`authoring.arrangeOutline`) and moves the page's forms into the same order. Without JavaScript the
 * page's up and down buttons and its "move to module" form do the same.
 */
import { useState } from 'react';
import { actions } from 'astro:actions';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useDroppable, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { format } from '~/i18n/format';
import { announcement, arrangement, isModule, listTarget, reorder, type SorterItem, type SorterLabels, type SorterModule } from './sorter-model';
import styles from './OutlineSorter.module.css';

interface Props {
  courseId: number;
  locale: 'es' | 'en';
  outline: SorterModule[];
  labels: SorterLabels;
}

/** What is being dragged: only its own kind of place takes it (a module never lands among lessons). */
type Dragging = 'module' | 'lesson' | null;

function Row({ item, labels, dragging, kind, children }: { item: SorterItem; labels: SorterLabels; dragging: Dragging; kind: 'module' | 'lesson'; children?: React.ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: item.key,
    disabled: { draggable: false, droppable: dragging !== null && dragging !== kind },
  });
  return (
    <li ref={setNodeRef} className={isDragging ? `${styles.row} ${styles.dragging}` : styles.row} style={{ transform: CSS.Transform.toString(transform), transition }}>
      <div className={styles.line}>
        <button type="button" ref={setActivatorNodeRef} className={styles.handle} {...attributes} {...listeners} aria-label={format(labels.handle, { name: item.name })}>
          <span aria-hidden="true">⠿</span>
        </button>
        <span className={styles.name}>{item.name}</span>
      </div>
      {children}
    </li>
  );
}

/**
 * A module's lesson list. An empty one is itself a place to drop a lesson: how a lesson reaches a module
 * with none. A list with lessons is not (its lessons are the places), so the keyboard never has to
 * choose between a list and its first lesson.
 */
function LessonList({ module, dragging, children }: { module: SorterModule; dragging: Dragging; children: React.ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: listTarget(module.key), disabled: dragging !== 'lesson' || module.lessons.length > 0 });
  return (
    <ol ref={setNodeRef} className={isOver ? `${styles.lessons} ${styles.over}` : styles.lessons}>
      {children}
    </ol>
  );
}

/**
 * Moves the page's server-drawn forms into the saved order (they name items by key, so they stay right;
 * a lesson's edge buttons are fixed by the next page load, and the server answers an edge in words).
 */
function reorderPage(outline: readonly SorterModule[]) {
  const list = document.querySelector('.outline-forms');
  for (const m of outline) {
    const li = document.getElementById(`module-${m.key}`);
    if (!li || !list) continue;
    list.appendChild(li);
    let lessons = li.querySelector('.lessons-forms');
    if (!lessons && m.lessons.length > 0) {
      // A module that had no lesson: its "no lessons" line gives way to a list.
      lessons = document.createElement('ol');
      lessons.className = 'lessons-forms';
      const empty = li.querySelector(':scope > p.muted');
      if (empty) empty.replaceWith(lessons);
      else li.querySelector(':scope > form')?.before(lessons);
    }
    for (const l of m.lessons) {
      const row = document.getElementById(`lesson-${l.key}`);
      if (row && lessons) lessons.appendChild(row);
    }
  }
}

export default function OutlineSorter({ courseId, locale, outline: initial, labels }: Props) {
  const [outline, setOutline] = useState(initial);
  const [status, setStatus] = useState('');
  const [dragging, setDragging] = useState<Dragging>(null);
  const sensors = useSensors(useSensor(PointerSensor), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const announcements: Announcements = {
    onDragStart: ({ active }) => announcement(labels, outline, 'picked', String(active.id)),
    onDragOver: ({ active, over }) => announcement(labels, outline, 'over', String(active.id), over ? String(over.id) : null),
    onDragEnd: ({ active, over }) => announcement(labels, outline, 'dropped', String(active.id), over ? String(over.id) : null),
    onDragCancel: ({ active }) => announcement(labels, outline, 'cancelled', String(active.id)),
  };

  async function dropped({ active, over }: DragEndEvent) {
    setDragging(null);
    if (!over || active.id === over.id) return;
    const next = reorder(outline, String(active.id), String(over.id));
    if (JSON.stringify(arrangement(next)) === JSON.stringify(arrangement(outline))) return;
    setOutline(next);
    setStatus(labels.saving);
    const { error } = await actions.authoring.arrangeOutline({ courseId, outline: arrangement(next), lang: locale });
    if (error) {
      setOutline(outline);
      setStatus(error.message || labels.connection);
      return;
    }
    reorderPage(next);
    setStatus(labels.saved);
  }

  return (
    <div className={styles.sorter}>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragStart={({ active }) => setDragging(isModule(outline, String(active.id)) ? 'module' : 'lesson')}
        onDragCancel={() => setDragging(null)}
        onDragEnd={dropped}
        accessibility={{ announcements, screenReaderInstructions: { draggable: labels.instructions } }}
      >
        <SortableContext items={outline.map((m) => m.key)} strategy={verticalListSortingStrategy}>
          <ol className={styles.modules}>
            {outline.map((m, i) => (
              <Row key={m.key} kind="module" dragging={dragging} item={{ key: m.key, name: `${format(labels.module, { n: i + 1 })}: ${m.name}` }} labels={labels}>
                <SortableContext items={m.lessons.map((l) => l.key)} strategy={verticalListSortingStrategy}>
                  <LessonList module={m} dragging={dragging}>
                    {m.lessons.map((l) => (
                      <Row key={l.key} kind="lesson" dragging={dragging} item={l} labels={labels} />
                    ))}
                  </LessonList>
                </SortableContext>
              </Row>
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      <p role="status" className={styles.status}>
        {status}
      </p>
    </div>
  );
}
