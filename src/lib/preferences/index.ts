export { boot, bootScript, type BootWindow } from './preferences';
