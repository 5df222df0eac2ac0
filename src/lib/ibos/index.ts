/** IBOs as administrators manage them: the pure rules and the database side. */
export * from './ibos';
export { iboFormValues, type IboFormValues } from './form-values';
export { loadIboList, loadIboEditor, businessChoices, saveIbo, setIboStatus, setIboLogo, type IboLine, type IboListPage, type IboEditor, type SaveOutcome, type StatusOutcome, type LogoOutcome } from './ibos.server';
