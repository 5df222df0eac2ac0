/**
 * Spanish messages: the reference catalogue, assembled from one file per section of the site
 * (`sections/*.ts`, each with its Spanish and English texts side by side). English must have exactly
 * the same keys: the type checker and `i18n.test.ts` both fail on a missing or extra key.
 */
import { assemble } from './assemble';
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
import * as orders from './sections/orders';
import * as authoring from './sections/authoring';
import * as videos from './sections/videos';
import * as courseArchive from './sections/course-archive';
import * as certificateAdmin from './sections/certificate-admin';
import * as dashboard from './sections/dashboard';
import * as couponAdmin from './sections/coupon-admin';
import * as commissions from './sections/commissions';
import * as people from './sections/people';
import * as membershipAdmin from './sections/membership-admin';
import * as reports from './sections/reports';
import * as iboAdmin from './sections/ibo-admin';
import * as business from './sections/business';
import * as businessFunnel from './sections/business-funnel';
import * as businessPeople from './sections/business-people';
import * as businessSales from './sections/business-sales';
import * as businessTeam from './sections/business-team';

export const es = assemble(core.es, catalog.es, contact.es, content.es, search.es, identity.es, security.es, ibo.es, learning.es, media.es, exams.es, certificates.es, minicart.es, commerce.es, forms.es, privacy.es, staff.es, questions.es, products.es, authoring.es, videos.es, courseArchive.es, support.es, certificateAdmin.es, dashboard.es, couponAdmin.es, people.es, membershipAdmin.es, reports.es, iboAdmin.es, orders.es, business.es, businessFunnel.es, businessPeople.es, businessSales.es, businessTeam.es, commissions.es);
