/** English messages. The academy's established English texts are kept word for word, quirks included. */
import type { Messages } from './types';
import * as catalog from './sections/catalog';
import * as certificates from './sections/certificates';
import * as commerce from './sections/commerce';
import * as contact from './sections/contact';
import * as content from './sections/content';
import * as core from './sections/core';
import * as ibo from './sections/ibo';
import * as identity from './sections/identity';
import * as security from './sections/security';
import * as search from './sections/search';
import * as learning from './sections/learning';
import * as media from './sections/media';
import * as exams from './sections/exams';
import * as forms from './sections/forms';
import * as minicart from './sections/minicart';
import * as privacy from './sections/privacy';
import * as staff from './sections/staff';
import * as questions from './sections/questions';
import * as products from './sections/products';
import * as support from './sections/support';
import * as authoring from './sections/authoring';
import * as videos from './sections/videos';
import * as courseArchive from './sections/course-archive';
import * as certificateAdmin from './sections/certificate-admin';
import * as dashboard from './sections/dashboard';
import * as couponAdmin from './sections/coupon-admin';
import * as business from './sections/business';

export const en: Messages = { ...core.en, ...catalog.en, ...contact.en, ...content.en, ...search.en, ...identity.en, ...security.en, ...ibo.en, ...learning.en, ...media.en, ...exams.en, ...certificates.en, ...minicart.en, ...commerce.en, ...forms.en, ...privacy.en, ...staff.en, ...questions.en, ...products.en, ...authoring.en, ...videos.en, ...courseArchive.en, ...support.en, ...certificateAdmin.en, ...dashboard.en, ...couponAdmin.en, ...business.en };

