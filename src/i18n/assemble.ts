/**
 * Puts a catalogue together from its sections. A call the bundler knows to be free of side effects
 * (`@__NO_SIDE_EFFECTS__`): browser code that imports `format` or `Locale` from `~/i18n` does not
 * carry both catalogues along. A top-level object spread (`{ ...core.es, … }`) could not be left out
 * of a bundle, since spreading may run getters: every page with an account form shipped 237 KB of
 * messages it never read.
 */
type Merged<T extends readonly object[]> = T extends readonly [infer Head, ...infer Rest extends readonly object[]] ? Head & Merged<Rest> : unknown;

/*@__NO_SIDE_EFFECTS__*/
export function assemble<T extends readonly object[]>(...sections: T): Merged<T> {
  return Object.assign({}, ...sections) as Merged<T>;
}
