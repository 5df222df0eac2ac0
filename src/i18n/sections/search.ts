/** Messages of the search section of the site: the header's course autocomplete and the search endpoint. */
import type { Shape } from '../types';

export const es = {
  search: {
    /** Accessible name of the suggestion list. */
    suggestions: 'Cursos sugeridos',
    /** Shown while the request is running. */
    searching: 'Buscando…',
    /** Announced to screen readers when suggestions arrive. */
    results: { one: '{count} curso encontrado. Usa las flechas para recorrerlo.', other: '{count} cursos encontrados. Usa las flechas para recorrerlos.' },
    noResults: 'Ningún curso coincide con «{q}».',
    minChars: 'Escribe al menos 3 caracteres para buscar.',
    unavailable: 'La búsqueda no está disponible ahora. Pulsa Enter para ver todos los resultados.',
    errors: {
      q: 'La búsqueda admite como máximo 1000 caracteres.',
      lang: 'El idioma debe ser «es» o «en».',
      limit: 'El límite debe ser un número entero entre 1 y 20.',
    },
  },
} as const;

export const en: Shape<typeof es> = {
  search: {
    suggestions: 'Suggested courses',
    searching: 'Searching…',
    results: { one: '{count} course found. Use the arrow keys to reach it.', other: '{count} courses found. Use the arrow keys to browse them.' },
    noResults: 'No course matches “{q}”.',
    minChars: 'Type at least 3 characters to search.',
    unavailable: 'Search is unavailable right now. Press Enter to see all results.',
    errors: {
      q: 'The search accepts at most 1000 characters.',
      lang: 'The language must be “es” or “en”.',
      limit: 'The limit must be a whole number between 1 and 20.',
    },
  },
};
