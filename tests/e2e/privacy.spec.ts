import { expect, test } from './fixtures';

/** Texts from src/content/privacy/{es,en}.md and src/i18n/{es,en}.ts. */
const LANGS = [
  {
    locale: 'es',
    url: '/privacity',
    home: '/',
    breadcrumbNav: 'Ruta de navegación',
    breadcrumbHome: 'Inicio',
    heading: 'Política de privacidad',
    breadcrumbCurrent: 'Privacidad',
    contents: 'Contenido',
    sections: [
      'Consideraciones generales',
      'Cookies',
      'Objetivo',
      'Definiciones',
      'Principios',
      'Derechos de los titulares',
      'Peticiones, quejas y reclamos',
      'Consultas',
      'Disposiciones finales',
      'Vigencia',
    ],
    facts: [
      'Nombres y apellidos.',
      'Número y tipo de identificación.',
      'Nacionalidad.',
      'Número de identificación tributaria.',
      'Datos de contacto: correo electrónico, teléfono y dirección.',
      'Datos de tarjetas de pago, usados únicamente para procesar reservas.',
      'Opiniones, reseñas y fotografías',
      'Datos de navegación',
      'puede compartir datos personales con proveedores (como aerolíneas, hoteles y plataformas de pago), con socios comerciales y con autoridades',
      'El sitio utiliza cookies y técnicas de huella digital del dispositivo (device fingerprinting)',
      'en un plazo máximo de 10 días hábiles',
      'no podrá superar 5 días hábiles adicionales',
      'en un plazo máximo de 15 días hábiles',
      'no podrá superar 8 días hábiles adicionales',
      'dentro de los 5 días siguientes a la recepción del reclamo',
      'Si pasan 2 meses desde esa solicitud',
      'en un plazo máximo de 2 días hábiles',
      'Última actualización: 28 de abril de 2022.',
    ],
  },
  {
    locale: 'en',
    url: '/en/privacity',
    home: '/en/',
    breadcrumbNav: 'Breadcrumb',
    breadcrumbHome: 'Home',
    heading: 'Privacy policy',
    breadcrumbCurrent: 'Privacy',
    contents: 'Contents',
    sections: [
      'General considerations',
      'Cookies',
      'Objective',
      'Definitions',
      'Principles',
      'Rights of data holders',
      'Petitions, complaints and claims',
      'Questions',
      'Final provisions',
      'Validity',
    ],
    facts: [
      'First and last names.',
      'Identification number and type.',
      'Nationality.',
      'Tax identification number.',
      'Contact data: email address, phone number and postal address.',
      'Payment card data, used solely to process bookings.',
      'Opinions, reviews and photos',
      'Browsing data',
      'may share personal data with suppliers (such as airlines, hotels and payment platforms), with business partners and with authorities',
      'The site uses cookies and device fingerprinting techniques',
      'within a maximum of 10 business days',
      'may not exceed 5 additional business days',
      'within a maximum of 15 business days',
      'may not exceed 8 additional business days',
      'within 5 days of receiving the claim',
      'If 2 months pass after that request',
      'within a maximum of 2 business days',
      'Last updated: 28 April 2022.',
    ],
  },
] as const;

for (const l of LANGS) {
  test.describe(`privacy policy (${l.locale})`, () => {
    test(`banner, breadcrumb, the ten sections in order and the policy's facts at ${l.url}`, async ({ page }) => {
      const response = await page.goto(l.url);
      expect(response?.status()).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('lang', l.locale);

      const h1 = page.getByRole('heading', { level: 1 });
      await expect(h1).toHaveCount(1);
      // The heading in the page's language; the English page keeps the Spanish banner words as its subtitle.
      await expect(h1).toHaveText(l.heading);
      await expect(h1).not.toHaveAttribute('lang', /./);
      if (l.locale === 'en') await expect(page.locator('.page-banner .subtitle[lang="es"]')).toHaveText('Política de privacidad');
      const crumbs = page.getByRole('navigation', { name: l.breadcrumbNav });
      await expect(crumbs.getByRole('listitem')).toHaveText([l.breadcrumbHome, l.breadcrumbCurrent]);
      await expect(crumbs.getByRole('link', { name: l.breadcrumbHome, exact: true })).toHaveAttribute('href', l.home);
      await expect(crumbs.getByText(l.breadcrumbCurrent, { exact: true })).toHaveAttribute('aria-current', 'page');

      const article = page.getByRole('article');
      await expect(article.getByRole('heading', { level: 2 })).toHaveText([...l.sections]);
      for (const fact of l.facts) await expect(article, `missing: ${fact}`).toContainText(fact);

      // The table of contents lists the sections and leads to them.
      const toc = page.getByRole('navigation', { name: l.contents });
      await expect(toc.getByRole('link')).toHaveText([...l.sections]);
      const last = l.sections[l.sections.length - 1]!;
      await toc.getByRole('link', { name: last, exact: true }).click();
      await expect(article.getByRole('heading', { level: 2, name: last, exact: true })).toBeInViewport();
    });
  });
}
