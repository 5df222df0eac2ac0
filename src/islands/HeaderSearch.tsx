/**
 * The header's course search: a WAI-ARIA 1.2 combobox with a listbox of suggestions. Its server render
 * is a plain GET form to the full results page, so searching works before (and without) JavaScript.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type SubmitEvent } from 'react';
import type { Locale } from '~/i18n';
import { localePath, paths } from '~/lib/paths';
import {
  DEBOUNCE_MS,
  MAX_QUERY_LENGTH,
  MIN_QUERY_LENGTH,
  fetchSuggestions,
  highlight,
  isSearchable,
  resultsAnnouncement,
  type SearchLabels,
  type SearchResult,
} from '~/lib/search/search.client';
import styles from './HeaderSearch.module.css';

interface Props {
  locale: Locale;
  labels: SearchLabels;
  /** The full results page the form submits to (`/courses`, `/en/courses`). */
  action: string;
  /** The term the results page shows, kept in the box there. */
  initialQuery?: string;
}

type Status = 'idle' | 'loading' | 'done' | 'error' | 'too-short';

/** Course search box with suggestions after 3 characters; Enter on a suggestion opens the course. */
export default function HeaderSearch({ locale, labels, action, initialQuery = '' }: Props) {
  const id = useId();
  const inputId = `${id}-q`;
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-option-${i}`;

  const inputRef = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(initialQuery);
  const [results, setResults] = useState<SearchResult[]>([]);
  /** The query `results` answer (highlighting and messages use it, not what is typed since). */
  const [answered, setAnswered] = useState('');
  const [status, setStatus] = useState<Status>('idle');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [announcement, setAnnouncement] = useState('');
  /** The box was edited here (the results page's own term asks for no suggestions until then). */
  const edited = useRef(false);

  // Text typed before hydration stays: adopt it.
  useEffect(() => {
    const typed = inputRef.current?.value ?? '';
    if (typed !== '') setValue(typed);
  }, []);

  // Debounced request after each change; a newer query aborts the older request.
  useEffect(() => {
    if (!edited.current && value === initialQuery) return;
    if (!isSearchable(value)) {
      setResults([]);
      setOpen(false);
      setActive(-1);
      setStatus('idle');
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setStatus('loading');
      setOpen(document.activeElement === inputRef.current);
      setAnnouncement(''); // so the same count is announced again for the next query
      fetchSuggestions(value, locale, controller.signal).then(
        (found) => {
          if (controller.signal.aborted) return; // answered after a newer keystroke: stale
          setResults(found);
          setAnswered(value);
          setActive(-1);
          setStatus('done');
          setOpen(document.activeElement === inputRef.current);
          setAnnouncement(resultsAnnouncement(locale, labels, found.length, value));
        },
        () => {
          if (controller.signal.aborted) return;
          setResults([]);
          setActive(-1);
          setStatus('error');
          setOpen(document.activeElement === inputRef.current);
          setAnnouncement(labels.unavailable);
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [value, locale, labels, initialQuery]);

  // Keep the active option in view when the list scrolls.
  useEffect(() => {
    if (open && active >= 0) document.getElementById(`${id}-option-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [id, open, active]);

  const listShown = open && results.length > 0;
  const messageShown = open && results.length === 0 && status !== 'idle';

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const go = (result: SearchResult) => {
    close();
    window.location.assign(localePath(locale, paths.course(result.id)));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = results.length;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (n === 0) return;
        e.preventDefault();
        const down = e.key === 'ArrowDown';
        if (!open) {
          setOpen(true);
          // Alt+ArrowDown only opens the list (APG); a plain arrow also moves into it.
          setActive(e.altKey ? -1 : down ? 0 : n - 1);
          return;
        }
        setActive((i) => (down ? (i + 1) % n : i <= 0 ? n - 1 : i - 1));
        return;
      }
      case 'Enter': {
        const chosen = listShown && active >= 0 ? results[active] : undefined;
        if (chosen) {
          e.preventDefault();
          go(chosen);
        }
        // Otherwise the form submits to the full results page.
        return;
      }
      case 'Escape': {
        e.preventDefault();
        if (open) close();
        else {
          setValue('');
          setStatus('idle');
        }
        return;
      }
      case 'Tab':
        close();
        return;
      default:
        return;
    }
  };

  const onSubmit = (e: SubmitEvent<HTMLFormElement>) => {
    if (isSearchable(value)) return; // the browser goes to the results page
    e.preventDefault();
    setStatus('too-short');
    setOpen(true);
    setAnnouncement(labels.minChars);
  };

  const message =
    status === 'loading'
      ? labels.searching
      : status === 'error'
        ? labels.unavailable
        : status === 'too-short'
          ? labels.minChars
          : resultsAnnouncement(locale, labels, 0, answered);

  return (
    <form className={`header-search ${styles.search}`} role="search" action={action} method="get" data-slot="search" onSubmit={onSubmit}>
      <label className="sr-only" htmlFor={inputId}>
        {labels.label}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        name="q"
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={listShown}
        aria-controls={listId}
        aria-activedescendant={listShown && active >= 0 ? optionId(active) : undefined}
        aria-busy={status === 'loading' || undefined}
        minLength={MIN_QUERY_LENGTH}
        maxLength={MAX_QUERY_LENGTH}
        placeholder={labels.placeholder}
        autoComplete="off"
        // A tiny intrinsic width lets the header squeeze the box (flex fills it) instead of overflowing.
        size={1}
        spellCheck={false}
        enterKeyHint="search"
        value={value}
        onChange={(e) => {
          edited.current = true;
          setValue(e.target.value);
          setActive(-1);
          if (status === 'too-short') setStatus('idle');
        }}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      <button type="submit" className="icon-button" aria-label={labels.submit}>
        <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="currentColor">
          <path d="M11 4a7 7 0 1 0 4.4 12.4l4.1 4.1 1.4-1.4-4.1-4.1A7 7 0 0 0 11 4Zm0 2a5 5 0 1 1 0 10 5 5 0 0 1 0-10Z" />
        </svg>
      </button>
      <ul id={listId} role="listbox" aria-label={labels.suggestions} className={styles.popup} hidden={!listShown}>
        {results.map((r, i) => (
          <li
            key={r.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className={styles.option}
            // Keep the focus in the input: the click chooses, the input stays the combobox.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => go(r)}
          >
            <img className={styles.thumb} src={r.thumbnail} alt="" width={64} height={40} loading="lazy" decoding="async" />
            <span className={styles.text}>
              <span className={styles.name}>
                {highlight(r.name, answered).map((part, k) => (part.match ? <mark key={k}>{part.text}</mark> : part.text))}
              </span>
              <span className={styles.category}>{r.categoryName}</span>
            </span>
          </li>
        ))}
      </ul>
      {messageShown && (
        <p className={`${styles.popup} ${styles.message} ${status === 'loading' ? styles.loading : ''}`} onMouseDown={(e) => e.preventDefault()}>
          {message}
        </p>
      )}
      <p className="sr-only" role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </form>
  );
}
