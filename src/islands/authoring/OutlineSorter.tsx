/**
 * The course editor's outline ordered by drag and drop or by keyboard (@dnd-kit: Space picks up, the
 * arrow keys move, Space drops, Escape cancels), with what happens read out to screen readers. Each
 * drop saves the whole order to the draft (`authoring.arrangeOutline`) and moves the page's forms into
 * the same order. Without JavaScript the page's up and down buttons do the same.
 */
import { useState } from 'react';
import { actions } from 'astro:actions';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { format } from '~/i18n/format';
import { announcement, arrangement, reorder, type SorterItem, type SorterLabels, type SorterModule } from './sorter-model';
import styles from './OutlineSorter.module.css';

interface Props {
  courseId: number;
  locale: 'es' | 'en';
  outline: SorterModule[];
  labels: SorterLabels;
}

function Row({ item, labels, children }: { item: SorterItem; labels: SorterLabels; children?: React.ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: item.key });
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

/** Moves the page's server-drawn forms into the saved order (they name items by key, so they stay right). */
function reorderPage(outline: readonly SorterModule[]) {
  const list = document.querySelector('.outline-forms');
  for (const m of outline) {
    const li = document.getElementById(`module-${m.key}`);
    if (!li || !list) continue;
    list.appendChild(li);
    const lessons = li.querySelector('.lessons-forms');
    for (const l of m.lessons) {
      const row = document.getElementById(`lesson-${l.key}`);
      if (row && lessons) lessons.appendChild(row);
    }
  }
}

export default function OutlineSorter({ courseId, locale, outline: initial, labels }: Props) {
  const [outline, setOutline] = useState(initial);
  const [status, setStatus] = useState('');
  const sensors = useSensors(useSensor(PointerSensor), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const announcements: Announcements = {
    onDragStart: ({ active }) => announcement(labels, outline, 'picked', String(active.id)),
    onDragOver: ({ active, over }) => announcement(labels, outline, 'over', String(active.id), over ? String(over.id) : null),
    onDragEnd: ({ active, over }) => announcement(labels, outline, 'dropped', String(active.id), over ? String(over.id) : null),
    onDragCancel: ({ active }) => announcement(labels, outline, 'cancelled', String(active.id)),
  };

  async function dropped({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const next = reorder(outline, String(active.id), String(over.id));
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

  const context = (items: readonly SorterItem[], children: React.ReactNode) => (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={dropped} accessibility={{ announcements, screenReaderInstructions: { draggable: labels.instructions } }}>
      <SortableContext items={items.map((i) => i.key)} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );

  return (
    <div className={styles.sorter}>
      {context(
        outline,
        <ol className={styles.modules}>
          {outline.map((m, i) => (
            <Row key={m.key} item={{ key: m.key, name: `${format(labels.module, { n: i + 1 })}: ${m.name}` }} labels={labels}>
              {m.lessons.length > 0 &&
                context(
                  m.lessons,
                  <ol className={styles.lessons}>
                    {m.lessons.map((l) => (
                      <Row key={l.key} item={l} labels={labels} />
                    ))}
                  </ol>,
                )}
            </Row>
          ))}
        </ol>,
      )}
      <p role="status" className={styles.status}>
        {status}
      </p>
    </div>
  );
}
