/** English messages. The specification's exact English texts are used as they are. */
import type { Messages } from './types';
import * as core from './sections/core';

export const en: Messages = { ...core.en };
