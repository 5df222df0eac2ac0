/**
 * Messages every form shares: the one table of field-error sentences (contact, account and checkout
 * forms report the same codes, `FORM_ERROR_CODES` in `lib/forms`) and the words for a server that could
 * not be reached. `{field}` is the field's label; `{max}`, `{min}` and `{length}` its limits.
 */
import type { Shape } from '../types';

export const es = {
  forms: {
    errors: {
      required: 'El campo {field} es obligatorio',
      invalidCharacters: 'El campo {field} contiene caracteres no permitidos',
      tooLong: 'Este campo no debe contener más de {max} caracteres',
      tooShort: 'El campo {field} debe tener al menos {min} caracteres',
      invalidEmail: 'Debe ser un correo electrónico válido',
      invalidOption: 'Elige una de las opciones de la lista',
      invalidDate: 'Esa fecha no existe: revisa el día y el mes',
      mustAcceptPrivacy: 'Debes aceptar la política de privacidad',
      mustAcceptTerms: 'Debes aceptar los términos para pagar',
      emailMismatch: 'Los correos no coinciden',
      passwordMismatch: 'Las contraseñas no coinciden',
      emailTaken: 'Ya existe una cuenta con este correo. Inicia sesión o recupera tu contraseña.',
      phoneDigits: 'El teléfono solo puede contener números',
      phoneLength: 'El teléfono debe tener exactamente {length} dígitos',
      cardDigits: 'El número de tarjeta solo puede contener dígitos y espacios',
      cardBrand: 'No aceptamos tarjetas de esta marca',
      cardLength: 'Al número de tarjeta le faltan o le sobran dígitos',
      cardLuhn: 'El número de tarjeta no es válido: revísalo',
      expired: 'La tarjeta está vencida',
      cvvDigits: 'El CVV solo puede contener dígitos',
      cvvLength: 'El CVV de esta tarjeta tiene {length} dígitos',
      identificationCharacters: 'Usa solo letras, números y guiones',
      invalidKey: 'Este formulario de pago caducó. Recarga la página e inténtalo de nuevo.',
    },
    connection: 'No fue posible conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.',
  },
} as const;

export const en: Shape<typeof es> = {
  forms: {
    errors: {
      required: '{field} field is required',
      invalidCharacters: '{field} field contains characters that are not allowed',
      tooLong: 'This field must not contain more than {max} characters',
      tooShort: '{field} field must have at least {min} characters',
      invalidEmail: 'It has to be a valid email',
      invalidOption: 'Choose one of the options in the list',
      invalidDate: 'That date does not exist: check the day and the month',
      mustAcceptPrivacy: 'You must accept the privacy policy',
      mustAcceptTerms: 'You must accept the terms to pay',
      emailMismatch: 'Emails No match',
      passwordMismatch: 'Passwords do not match',
      emailTaken: 'An account with this email already exists. Log in or reset your password.',
      phoneDigits: 'The phone may only contain numbers',
      phoneLength: 'The phone must have exactly {length} digits',
      cardDigits: 'The card number may only contain digits and spaces',
      cardBrand: 'We do not accept cards of this brand',
      cardLength: 'The card number has too few or too many digits',
      cardLuhn: 'The card number is not valid: check it',
      expired: 'The card has expired',
      cvvDigits: 'The CVV may only contain digits',
      cvvLength: "This card's CVV has {length} digits",
      identificationCharacters: 'Use only letters, digits and hyphens',
      invalidKey: 'This payment form has expired. Reload the page and try again.',
    },
    connection: 'Could not connect to the server. Check your connection and try again.',
  },
};
