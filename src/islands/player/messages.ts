/** The texts the lesson player island receives from the page (its part of the message catalogue). */
import type { Messages } from '~/i18n';

export type PlayerMessages = Messages['learning']['player'];
