/** The company's public details: one place for social links, chat and contact data. */
export const site = {
  name: 'Academia',
  copyrightYear: 2022,
  email: 'contacto@academia.example',
  phone: '+1 305 555 0142',
  address: '1200 Brickell Ave, Miami, FL 33131',
  social: [
    { id: 'facebook', label: 'Facebook', href: 'https://www.facebook.com/' },
    { id: 'instagram', label: 'Instagram', href: 'https://www.instagram.com/' },
    { id: 'youtube', label: 'YouTube', href: 'https://www.youtube.com/' },
    { id: 'tiktok', label: 'TikTok', href: 'https://www.tiktok.com/' },
  ],
  /** The messaging-service chat link of the footer. */
  chat: 'https://wa.me/13055550142',
} as const;

/** One of the social networks the footer links to. */
export type SocialId = (typeof site.social)[number]['id'];
