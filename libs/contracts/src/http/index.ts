import { academicFamilies } from './academic.ts';
import { attendanceApi } from './attendance.ts';
import { authApi } from './auth.ts';
import { blocksApi } from './blocks.ts';
import { hoursBankApi } from './hours-bank.ts';
import type { DeclaredFamily } from '../routes.ts';
import { incidentsApi, timeRecordsApi } from './incidents.ts';
import { notificationsApi, notificationsUnsubscribeApi, pushSendApi } from './notifications.ts';
import { payslipsApi } from './payslips.ts';
import { privacyRequestsApi } from './privacy.ts';

export * from './common.ts';
export * from './academic.ts';
export * from './attendance.ts';
export * from './auth.ts';
export * from './console-session.ts';
export * from './blocks.ts';
export * from './hours-bank.ts';
export * from './incidents.ts';
export * from './notifications.ts';
export * from './payslips.ts';
export * from './privacy.ts';

/**
 * The route families whose routes are declared once (`routeFamily(...).route(...)`): the OpenAPI
 * document registers their routes, the gateway's table is derived from them, and each service binds
 * its handlers to them (`routeBinder` in @academy/service). A service's families are added here.
 */
export const declaredFamilies: DeclaredFamily[] = [authApi, ...academicFamilies, blocksApi, attendanceApi, hoursBankApi, timeRecordsApi, incidentsApi, payslipsApi, pushSendApi, notificationsUnsubscribeApi, notificationsApi, privacyRequestsApi];
