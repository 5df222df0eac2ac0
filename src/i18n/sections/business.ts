/**
 * Messages of an IBO's business page (/mybusiness): the share kit (links, QR code, share buttons, the
 * ready message), the suspended notice and the refusals. `ready` is the message an IBO sends in this
 * language, whatever the language of the page they read it on.
 */
import type { Shape } from '../types';

export const es = {
  business: {
    title: 'Mi negocio',
    description: 'Tu enlace de IBO, tus enlaces por curso y tu código QR, listos para compartir.',
    lead: 'Hola, {name}. Comparte la academia de {company} con tu código {code}.',
    menu: 'Mi negocio',
    sectionsLabel: 'Secciones de mi negocio',
    sections: { share: 'Compartir', funnel: 'Embudo', people: 'Personas', sales: 'Ventas', team: 'Equipo' },
    refusals: {
      iboSession: 'Esta sesión se abrió con un código IBO. Para ver tu negocio, inicia sesión con la cuenta del IBO.',
      notOwner: 'Mi negocio es para los IBO: tu cuenta no tiene un código IBO. Si eres IBO, escríbenos para vincularlo.',
      suspended: 'Tu código IBO está suspendido: tus enlaces y tu código QR no están disponibles.',
      login: 'Inicia sesión con la cuenta del IBO para ver tu negocio.',
    },
    suspended: {
      title: 'Tu código IBO {code} está suspendido',
      body: 'Mientras esté suspendido, tus enlaces muestran el aviso de código suspendido y aquí no se muestra ningún dato de tu negocio. Escríbenos para aclararlo.',
      contact: 'Escribir a la academia',
    },
    share: {
      title: 'Comparte tu enlace',
      lead: 'Quien entra por tu enlace llega a la academia con tu código aplicado.',
      link: 'Tu enlace',
      copy: 'Copiar enlace',
      copyCourse: 'Copiar el enlace de {course}',
      copied: 'Enlace copiado.',
      copyFailed: 'No se pudo copiar: selecciona el enlace y cópialo a mano.',
      messageLanguage: 'Idioma del mensaje',
      languages: { es: 'Español', en: 'Inglés' },
      message: 'Mensaje listo',
      messageHint: 'Los botones lo envían con tu enlace; puedes cambiarlo en la aplicación antes de enviarlo.',
      whatsapp: 'WhatsApp',
      whatsappLabel: 'Compartir por WhatsApp',
      facebook: 'Facebook',
      facebookLabel: 'Compartir en Facebook',
      email: 'Correo',
      emailLabel: 'Enviar por correo electrónico',
      device: 'Más opciones',
      deviceLabel: 'Compartir con otra aplicación del teléfono',
      newWindow: '(se abre en una ventana nueva)',
    },
    qr: {
      title: 'Tu código QR',
      lead: 'Imprímelo en tus tarjetas o muéstralo desde tu teléfono: abre tu enlace.',
      alt: 'Código QR de tu enlace {url}',
      png: 'Descargar PNG',
      svg: 'Descargar SVG',
    },
    courses: {
      title: 'Enlaces por curso',
      lead: 'Cada enlace abre ese curso con tu código aplicado.',
      none: 'Todavía no hay cursos publicados.',
      open: 'Abrir {course}',
      openShort: 'Abrir',
    },
    ready: {
      subject: 'Te invito a la academia de {company}',
      body: 'Hola, te invito a la academia de {company}: cursos en video, exámenes y certificados. Entra con mi enlace: {url}',
    },
  },
};

export const en: Shape<typeof es> = {
  business: {
    title: 'My business',
    description: 'Your IBO link, your course links and your QR code, ready to share.',
    lead: 'Hello, {name}. Share the {company} academy with your code {code}.',
    menu: 'My business',
    sectionsLabel: 'Sections of my business',
    sections: { share: 'Share', funnel: 'Funnel', people: 'People', sales: 'Sales', team: 'Team' },
    refusals: {
      iboSession: 'This session was opened with an IBO code. To see your business, log in with the IBO’s account.',
      notOwner: 'My business is for IBOs: your account has no IBO code. If you are an IBO, write to us to link it.',
      suspended: 'Your IBO code is suspended: your links and your QR code are not available.',
      login: 'Log in with the IBO’s account to see your business.',
    },
    suspended: {
      title: 'Your IBO code {code} is suspended',
      body: 'While it is suspended, your links show the suspended-code notice and no data of your business is shown here. Write to us to sort it out.',
      contact: 'Write to the academy',
    },
    share: {
      title: 'Share your link',
      lead: 'Whoever comes in through your link reaches the academy with your code applied.',
      link: 'Your link',
      copy: 'Copy link',
      copyCourse: 'Copy the link of {course}',
      copied: 'Link copied.',
      copyFailed: 'Could not copy: select the link and copy it by hand.',
      messageLanguage: 'Language of the message',
      languages: { es: 'Spanish', en: 'English' },
      message: 'Ready message',
      messageHint: 'The buttons send it with your link; you can change it in the app before sending.',
      whatsapp: 'WhatsApp',
      whatsappLabel: 'Share on WhatsApp',
      facebook: 'Facebook',
      facebookLabel: 'Share on Facebook',
      email: 'E-mail',
      emailLabel: 'Send by e-mail',
      device: 'More options',
      deviceLabel: 'Share with another app of the phone',
      newWindow: '(opens in a new window)',
    },
    qr: {
      title: 'Your QR code',
      lead: 'Print it on your cards or show it from your phone: it opens your link.',
      alt: 'QR code of your link {url}',
      png: 'Download PNG',
      svg: 'Download SVG',
    },
    courses: {
      title: 'Links per course',
      lead: 'Each link opens that course with your code applied.',
      none: 'No course is published yet.',
      open: 'Open {course}',
      openShort: 'Open',
    },
    ready: {
      subject: 'Join me at the {company} academy',
      body: 'Hi, I invite you to the {company} academy: video courses, exams and certificates. Come in through my link: {url}',
    },
  },
};
