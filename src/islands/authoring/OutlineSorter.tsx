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
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useDroppable, useSensor, useSensors, type Announcements, type CollisionDetection, type DragEndEvent, type KeyboardCoordinateGetter } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { format } from '~/i18n/format';
import { announcement, arrangement, listTarget, reorder, type SorterItem, type SorterLabels, type SorterModule } from './sorter-model';
import styles from './OutlineSorter.module.css';

interface Props {
  courseId: number;
  locale: 'es' | 'en';
  outline: SorterModule[];
  labels: SorterLabels;
}

/** A place's kind: a module goes among modules; a lesson onto a lesson's place or an empty module's list. */
type Kind = 'module' | 'lesson' | 'list';
const fits = (dragged: unknown, place: unknown) => (dragged === 'module' ? place === 'module' : place === 'lesson' || place === 'list');
const kindOf = (entry: { data: { current?: { [key: string]: unknown } | undefined } } | null | undefined): unknown => entry?.data.current?.kind;

/** The nearest place for what is dragged, among the places of its own kind (every place stays measured all along). */
const collision: CollisionDetection = (args) => closestCenter({ ...args, droppableContainers: args.droppableContainers.filter((c) => fits(kindOf(args.active), kindOf(c))) });

/** The arrow keys' next place, among the places of the dragged item's kind. */
const keyboardPlaces: KeyboardCoordinateGetter = (event, args) => {
  const all = args.context.droppableContainers;
  const dragged = kindOf(args.context.active);
  const only = Object.assign(new Map(all), { getEnabled: () => all.getEnabled().filter((c) => fits(dragged, kindOf(c))) });
  return sortableKeyboardCoordinates(event, { ...args, context: { ...args.context, droppableContainers: only as unknown as typeof all } });
};

function Row({ item, labels, kind, children }: { item: SorterItem; labels: SorterLabels; kind: Kind; children?: React.ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: item.key, data: { kind } });
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
function LessonList({ module, children }: { module: SorterModule; children: React.ReactNode }) {
  const { setNodeRef, isOver } = useDroppable({ id: listTarget(module.key), data: { kind: 'list' satisfies Kind }, disabled: module.lessons.length > 0 });
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
  const sensors = useSensors(useSensor(PointerSensor), useSensor(KeyboardSensor, { coordinateGetter: keyboardPlaces }));
  const announcements: Announcements = {
    onDragStart: ({ active }) => announcement(labels, outline, 'picked', String(active.id)),
    onDragOver: ({ active, over }) => announcement(labels, outline, 'over', String(active.id), over ? String(over.id) : null),
    onDragEnd: ({ active, over }) => announcement(labels, outline, 'dropped', String(active.id), over ? String(over.id) : null),
    onDragCancel: ({ active }) => announcement(labels, outline, 'cancelled', String(active.id)),
  };

  async function dropped({ active, over }: DragEndEvent) {
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
        collisionDetection={collision}
        onDragEnd={dropped}
        accessibility={{ announcements, screenReaderInstructions: { draggable: labels.instructions } }}
      >
        <SortableContext items={outline.map((m) => m.key)} strategy={verticalListSortingStrategy}>
          <ol className={styles.modules}>
            {outline.map((m, i) => (
              <Row key={m.key} kind="module" item={{ key: m.key, name: `${format(labels.module, { n: i + 1 })}: ${m.name}` }} labels={labels}>
                <SortableContext items={m.lessons.map((l) => l.key)} strategy={verticalListSortingStrategy}>
                  <LessonList module={m}>
                    {m.lessons.map((l) => (
                      <Row key={l.key} kind="lesson" item={l} labels={labels} />
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
