/** Messages of "My data": the archive of one's own data, deleting the account, and their e-mails. */
import type { Shape } from '../types';

export const es = {
  myData: {
    title: 'Mis datos',
    description: 'Descarga tus datos o elimina tu cuenta.',
    /** The link on the profile page. */
    link: 'Mis datos: descargarlos o eliminar la cuenta',
    lead: 'Aquí ejerces tus derechos sobre los datos que la academia guarda de ti.',
    privacy: 'Lee la política de privacidad',
    exportTitle: 'Descargar mis datos',
    exportLead:
      'Preparamos un archivo ZIP con tu perfil, tu progreso en las lecciones, tus intentos de examen, tus certificados (con sus PDF), tus pedidos (con sus recibos), los registros de prospecto a los que estás vinculado y tus consentimientos, en JSON y CSV. Te enviamos por correo un enlace válido durante {days} días.',
    exportButton: 'Preparar mi archivo',
    exportQueued: 'Estamos preparando tu archivo. Te enviaremos el enlace a {email} en unos minutos.',
    exportTooMany: { one: 'Ya pediste varios archivos hoy. Vuelve a intentarlo en {count} minuto.', other: 'Ya pediste varios archivos hoy. Vuelve a intentarlo en {count} minutos.' },
    exportsTitle: 'Tus archivos',
    exportPending: 'En preparación (pedido el {date})',
    exportReady: 'Enviado por correo el {date}; el enlace vale hasta el {expires}',
    exportExpired: 'Caducado el {expires}',
    deleteTitle: 'Eliminar mi cuenta',
    deleteLead:
      'Tu cuenta se eliminará dentro de {days} días. Si vuelves a iniciar sesión antes, la eliminación se cancela. Después borraremos o anonimizaremos todos tus datos, salvo lo que la ley nos obliga a conservar: los pedidos y sus recibos, que se guardan sin tu nombre.',
    keptTitle: 'Tus certificados seguirán siendo verificables',
    keptLead: 'Su página de verificación mostrará el curso y la fecha, sin tu nombre:',
    keptNone: 'No tienes certificados emitidos.',
    password: 'Tu contraseña actual',
    passwordHint: 'La pedimos para confirmar que eres tú.',
    deleteButton: 'Eliminar mi cuenta en {days} días',
    wrongPassword: 'La contraseña no es correcta. No se ha programado nada.',
    alreadyScheduled: 'La eliminación de tu cuenta ya está programada para el {date}. No se ha programado otra.',
    lastAdministrator: 'Eres la única persona que administra la academia: antes de eliminar tu cuenta, da el rol de administrador a otra cuenta.',
    deleteTooMany: { one: 'Demasiados intentos. Vuelve a intentarlo en {count} minuto.', other: 'Demasiados intentos. Vuelve a intentarlo en {count} minutos.' },
    scheduled: 'Tu cuenta se eliminará el {date}. Si inicias sesión antes, la eliminación se cancela.',
    cancelledOnLogin: 'Has vuelto a iniciar sesión: hemos cancelado la eliminación de tu cuenta.',
    download: {
      notFound: 'Este enlace de descarga no existe o no es de tu cuenta.',
      expired: 'Este enlace de descarga ha caducado. Pide un archivo nuevo en «Mis datos».',
    },
    mail: {
      subject: 'Tu archivo de datos está listo',
      text: 'Hola, {name}:\n\nTu archivo con los datos que la academia guarda de ti está listo. Descárgalo aquí (debes iniciar sesión con tu cuenta):\n\n{link}\n\nEl enlace vale hasta el {expires}.\n\nSi no lo pediste tú, cambia tu contraseña.',
    },
  },
} as const;

export const en: Shape<typeof es> = {
  myData: {
    title: 'My data',
    description: 'Download your data or delete your account.',
    link: 'My data: download it or delete the account',
    lead: 'Here you exercise your rights over the data the academy keeps about you.',
    privacy: 'Read the privacy policy',
    exportTitle: 'Download my data',
    exportLead:
      'We prepare a ZIP archive with your profile, your lesson progress, your exam attempts, your certificates (with their PDFs), your orders (with their receipts), the prospect records you are linked to and your consents, in JSON and CSV. We e-mail you a link valid for {days} days.',
    exportButton: 'Prepare my archive',
    exportQueued: 'We are preparing your archive. We will e-mail the link to {email} in a few minutes.',
    exportTooMany: { one: 'You have already asked for several archives today. Try again in {count} minute.', other: 'You have already asked for several archives today. Try again in {count} minutes.' },
    exportsTitle: 'Your archives',
    exportPending: 'Being prepared (asked for on {date})',
    exportReady: 'E-mailed on {date}; the link works until {expires}',
    exportExpired: 'Expired on {expires}',
    deleteTitle: 'Delete my account',
    deleteLead:
      'Your account will be deleted in {days} days. Logging in before then cancels the deletion. Then we delete or anonymize all your data except what the law makes us keep: orders and their receipts, kept without your name.',
    keptTitle: 'Your certificates stay verifiable',
    keptLead: 'Their verification page will show the course and the date, without your name:',
    keptNone: 'You hold no certificates.',
    password: 'Your current password',
    passwordHint: 'We ask for it to make sure it is you.',
    deleteButton: 'Delete my account in {days} days',
    wrongPassword: 'The password is not right. Nothing was scheduled.',
    alreadyScheduled: 'Your account is already scheduled for deletion on {date}. No second deletion was scheduled.',
    lastAdministrator: 'You are the academy’s only administrator: give the administrator role to another account before deleting yours.',
    deleteTooMany: { one: 'Too many attempts. Try again in {count} minute.', other: 'Too many attempts. Try again in {count} minutes.' },
    scheduled: 'Your account will be deleted on {date}. Logging in before then cancels the deletion.',
    cancelledOnLogin: 'You logged in again: we cancelled the deletion of your account.',
    download: {
      notFound: 'This download link does not exist or is not your account’s.',
      expired: 'This download link has expired. Ask for a new archive in “My data”.',
    },
    mail: {
      subject: 'Your data archive is ready',
      text: 'Hello {name},\n\nThe archive of the data the academy keeps about you is ready. Download it here (you must be logged in to your account):\n\n{link}\n\nThe link works until {expires}.\n\nIf you did not ask for it, change your password.',
    },
  },
};
