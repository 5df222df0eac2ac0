/**
 * Messages of the lesson-media endpoints (`/media/resource/…`): the plain-text answers a browser or a
 * person gets when a video, caption track or document cannot be served.
 */
import type { Shape } from '../types';

export const es = {
  media: {
    /** The resource id in the address is not a positive whole number. */
    badId: 'El identificador del recurso debe ser un número entero positivo.',
    /** The caption language in the address is not one of the academy's. */
    badLang: 'El idioma de los subtítulos debe ser «es» o «en».',
    /** Unknown resource, caption track or file, and courses the person may not even see. */
    notFound: 'Este recurso no existe o ya no está disponible.',
    /** Why a lesson's bytes are refused (the access rule that failed). */
    refused: {
      login: 'No tienes acceso a esta lección. Inicia sesión para verla.',
      prospect: 'No tienes acceso a esta lección. Primero ingresa los datos del prospecto.',
      purchase: 'No tienes acceso a esta lección. Compra el curso para verla.',
      prerequisite: 'Debes completar el curso básico para acceder a este curso',
    },
    /** A Range header that asks only for bytes past the end of the file. */
    rangeNotSatisfiable: 'El rango pedido está fuera del archivo, que tiene {size} bytes.',
    /** Any method other than GET and HEAD. */
    methodNotAllowed: 'Este recurso solo admite los métodos GET y HEAD.',
  },
} as const;

export const en: Shape<typeof es> = {
  media: {
    badId: 'The resource id must be a positive whole number.',
    badLang: 'The caption language must be “es” or “en”.',
    notFound: 'This resource does not exist or is no longer available.',
    refused: {
      login: 'You do not have access to this lesson. Log in to watch it.',
      prospect: 'You do not have access to this lesson. Enter the prospect’s details first.',
      purchase: 'You do not have access to this lesson. Buy the course to watch it.',
      prerequisite: 'You must complete the basic course to access this course',
    },
    rangeNotSatisfiable: 'The requested range is outside the file, which has {size} bytes.',
    methodNotAllowed: 'This resource only accepts the GET and HEAD methods.',
  },
};
