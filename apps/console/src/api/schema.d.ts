// Generated from the gateway's OpenAPI document by apps/console/scripts/client.ts: do not edit.
// Regenerate with `npx nx client console`.

export interface paths {
    "/api/console/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in to the console: the refresh token is set as an HttpOnly cookie, never answered
         * @description Same credentials, limits and answers as `POST /api/v2/auth/login`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description A new session; `Set-Cookie` carries the refresh token */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConsoleSession"];
                    };
                };
                /** @description Malformed body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INVALID_CREDENTIALS */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description TOO_MANY_LOGIN_ATTEMPTS or RATE_LIMITED; see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /**
         * Log out of the console: the session is revoked and the cookie cleared
         * @description Needs the cookie and its X-CSRF-Token. Without a cookie: 204 (nothing to end).
         */
        delete: {
            parameters: {
                query?: never;
                header: {
                    "x-csrf-token": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Session ended, cookie cleared */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description CSRF_TOKEN_INVALID: the X-CSRF-Token header is missing or is not the session's current one */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/console/session/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the session cookie and get a new access token
         * @description Needs the cookie and its X-CSRF-Token. The cookie's token is spent: presenting it again (a stolen copy) ends the session. Not to be retried blindly after a lost answer.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    "x-csrf-token": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The rotated session; `Set-Cookie` carries the new refresh token */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConsoleSession"];
                    };
                };
                /** @description UNAUTHORIZED: no session cookie, or its refresh token is unknown, spent, revoked or expired (the cookie is cleared) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description CSRF_TOKEN_INVALID: the X-CSRF-Token header is missing or is not the session's current one */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/students/administrative": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Administrative student listing (admin), newest first, with `renews` from the latest school course */
        get: {
            parameters: {
                query?: {
                    /** @description default 20; same coercion; at most 100 */
                    limit?: string;
                    /** @description default 1; not a finite number > 0 becomes 1; rounded down */
                    page?: string;
                    schoolCourseId?: string;
                    /** @description name and lastname, case- and accent-insensitive */
                    search?: string;
                    status?: "active" | "inactive" | "withdrawn";
                    subjectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of students */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                id: number;
                                lastname: string;
                                name: string;
                                renews: boolean;
                                status: string;
                            }[];
                            meta: components["schemas"]["PageMeta"];
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/registration/update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Gone: replaced by PUT /api/v2/registration/assign-students-to-event */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Token missing, invalid or expired (`Invalid or expired token`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                /** @description Gone */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/attendance/classes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Classes starting in the range (today by default) with their attendance state (taken, missing, not yet) and editing window, by start (admins: any teacher's or all; a teacher: their own) */
        get: {
            parameters: {
                query?: {
                    employeeId?: string;
                    from?: string;
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The classes, by start */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                centerId: number;
                                centerName: string;
                                employeeId: number | null;
                                /** @description ISO 8601 instant */
                                endsAt: string;
                                eventId: number;
                                /** @description ISO 8601 instant */
                                locksAt: string;
                                /** @description ISO 8601 instant */
                                opensAt: string;
                                /** @description ISO 8601 instant */
                                startsAt: string;
                                /** @enum {string} */
                                state: "taken" | "missing" | "notYet";
                                studentCount: number;
                                subjectId: number;
                                subjectName: string;
                                /** @description ISO 8601 instant */
                                takenAt: string | null;
                            }[];
                            /** Format: date */
                            from: string;
                            /** Format: date */
                            to: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR, INVALID_RANGE (from after to, or more than a year) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_OWN_EMPLOYEE_ID */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/attendance/events/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A class's sheet: the roster with marks, who took it and when, the unmarked (its teacher or an admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    eventId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The sheet */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            centerId: number;
                            changed: number;
                            employeeId: number | null;
                            /** @description ISO 8601 instant */
                            endsAt: string;
                            eventId: number;
                            /** @description ISO 8601 instant */
                            startsAt: string;
                            students: {
                                /** @description ISO 8601 instant */
                                markedAt: string | null;
                                markedByUserId: number | null;
                                minutesLate: number | null;
                                name: string;
                                remark: string | null;
                                status: string | null;
                                studentId: number;
                            }[];
                            subjectId: number;
                            taken: {
                                /** @description ISO 8601 instant */
                                at: string;
                                byUserId: number;
                            } | null;
                            unmarked: number[];
                            updated: {
                                /** @description ISO 8601 instant */
                                at: string;
                                byUserId: number;
                            } | null;
                            window: {
                                editable: boolean;
                                /** @description ISO 8601 instant */
                                locksAt: string;
                                /** @description ISO 8601 instant */
                                opensAt: string;
                            };
                        };
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_EVENT_TEACHER */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description EVENT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Take or change a class's attendance (its teacher from 15 minutes before it until ATTENDANCE_EDIT_DAYS after; admins any time). markRest never overwrites; the same marks again change nothing. Records attendance.recorded */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    eventId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        markRest?: string;
                        marks: {
                            minutesLate?: number;
                            remark?: string;
                            status: string;
                            studentId: number;
                        }[];
                    };
                };
            };
            responses: {
                /** @description The sheet */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            centerId: number;
                            changed: number;
                            employeeId: number | null;
                            /** @description ISO 8601 instant */
                            endsAt: string;
                            eventId: number;
                            /** @description ISO 8601 instant */
                            startsAt: string;
                            students: {
                                /** @description ISO 8601 instant */
                                markedAt: string | null;
                                markedByUserId: number | null;
                                minutesLate: number | null;
                                name: string;
                                remark: string | null;
                                status: string | null;
                                studentId: number;
                            }[];
                            subjectId: number;
                            taken: {
                                /** @description ISO 8601 instant */
                                at: string;
                                byUserId: number;
                            } | null;
                            unmarked: number[];
                            updated: {
                                /** @description ISO 8601 instant */
                                at: string;
                                byUserId: number;
                            } | null;
                            window: {
                                editable: boolean;
                                /** @description ISO 8601 instant */
                                locksAt: string;
                                /** @description ISO 8601 instant */
                                opensAt: string;
                            };
                        };
                    };
                };
                /** @description VALIDATION_ERROR, STUDENTS_NOT_ON_ROSTER (naming them), UNKNOWN_ATTENDANCE_STATUS, MINUTES_LATE_OVER_CLASS_LENGTH, CLASS_NOT_STARTED */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_EVENT_TEACHER, ATTENDANCE_LOCKED (the editing window has passed) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description EVENT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/attendance/events/{eventId}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every change of a class's marks, oldest first: who, when, from → to (its teacher or an admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    eventId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The changes */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description ISO 8601 instant */
                                at: string;
                                byUserId: number;
                                from: {
                                    minutesLate: number | null;
                                    remark: string | null;
                                    status: string | null;
                                };
                                studentId: number;
                                to: {
                                    minutesLate: number | null;
                                    remark: string | null;
                                    status: string | null;
                                };
                            }[];
                        };
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_EVENT_TEACHER */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description EVENT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/attendance/missing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Past classes with no attendance taken (admins: any teacher or all; a teacher: their own) */
        get: {
            parameters: {
                query?: {
                    employeeId?: string;
                    from?: string;
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The classes, oldest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                centerId: number;
                                centerName: string;
                                employeeId: number | null;
                                /** @description ISO 8601 instant */
                                endsAt: string;
                                eventId: number;
                                /** @description ISO 8601 instant */
                                startsAt: string;
                                studentCount: number;
                                subjectId: number;
                                subjectName: string;
                            }[];
                            /** Format: date */
                            from: string;
                            /** Format: date */
                            to: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR, INVALID_RANGE (from after to, or more than a year) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_OWN_EMPLOYEE_ID */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/attendance/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Per student and subject: percentages, below the threshold flagged (admins; teachers with a subjectId they teach). With Accept: text/csv, streamed: one row per student × session (times in the academy time zone) and a summary row per student and subject */
        get: {
            parameters: {
                query?: {
                    below?: string;
                    centerId?: string;
                    from?: string;
                    subjectId?: string;
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The report */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                below: boolean;
                                counted: number;
                                counts: {
                                    [key: string]: number;
                                };
                                percentage: number | null;
                                sessions: number;
                                studentId: number;
                                studentName: string;
                                subjectId: number;
                                subjectName: string;
                            }[];
                            /** Format: date */
                            from: string;
                            thresholdPercent: number;
                            /** Format: date */
                            to: string;
                        };
                        "text/csv": string;
                    };
                };
                /** @description VALIDATION_ERROR, INVALID_RANGE (from after to, or more than a year) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_SUBJECT_TEACHER */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/attendance/statuses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The attendance statuses, in order, with their weights (any signed-in user) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The statuses */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                code: string;
                                name: string;
                                weight: number | null;
                            }[];
                        };
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Replace the set of statuses (admin) */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        statuses: {
                            code: string;
                            name: string;
                            weight: number | null;
                        }[];
                    };
                };
            };
            responses: {
                /** @description The new set */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                code: string;
                                name: string;
                                weight: number | null;
                            }[];
                        };
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FORBIDDEN: not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description ATTENDANCE_STATUS_IN_USE: a status left out is used by marks. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/attendance/students/{studentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A student's attendance per subject: counts by status and the weighted percentage (admins; teachers for the subjects they teach the student) */
        get: {
            parameters: {
                query?: {
                    from?: string;
                    subjectId?: string;
                    to?: string;
                };
                header?: never;
                path: {
                    studentId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Per subject */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: date */
                            from: string;
                            studentId: number;
                            subjects: {
                                counted: number;
                                counts: {
                                    [key: string]: number;
                                };
                                percentage: number | null;
                                sessions: number;
                                subjectId: number;
                                subjectName: string;
                            }[];
                            /** Format: date */
                            to: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR, INVALID_RANGE (from after to, or more than a year) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_SUBJECT_TEACHER */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description STUDENT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log in with e-mail and password
         * @description A wrong password and an unknown e-mail get the same answer in the same time. Failed logins are limited per (e-mail, IP): 5 in a row block the pair for 15 minutes (a success clears them); and per IP: 100 a day block the IP for a day. Successful logins count only against the general per-IP limit.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Tokens of a new session */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accessToken: string;
                            /** Format: date-time */
                            expiresAt: string;
                            expiresIn: number;
                            /** Format: date-time */
                            refreshExpiresAt: string;
                            refreshToken: string;
                            /** @enum {string} */
                            tokenType: "Bearer";
                            user: {
                                email: string;
                                employeeId: number | null;
                                id: number;
                                /** @enum {string|null} */
                                locale: "es" | "en" | null;
                                /** @enum {string} */
                                role: "admin" | "user";
                                studentId: number | null;
                            };
                        };
                    };
                };
                /** @description Malformed body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INVALID_CREDENTIALS: wrong e-mail or password */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
                /** @description TOO_MANY_LOGIN_ATTEMPTS (failed logins) or RATE_LIMITED (the general limit); see Retry-After */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the session of a refresh token
         * @description Revokes the token and its session. Idempotent: an unknown or already revoked token also answers 204.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        refreshToken: string;
                    };
                };
            };
            responses: {
                /** @description Session ended */
                204: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Malformed body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The authenticated user */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The user of the access token */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: {
                                email: string;
                                employeeId: number | null;
                                id: number;
                                /** @enum {string|null} */
                                locale: "es" | "en" | null;
                                /** @enum {string} */
                                role: "admin" | "user";
                                studentId: number | null;
                            };
                        };
                    };
                };
                /** @description UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change your own settings: the language of your notifications
         * @description Each mail and push to you is written in `locale` (`es` or `en`); `null` goes back to the academy's language. Carried on the events that name you from then on.
         */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string|null} */
                        locale: "es" | "en" | null;
                    };
                };
            };
            responses: {
                /** @description The user, changed */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            user: {
                                email: string;
                                employeeId: number | null;
                                id: number;
                                /** @enum {string|null} */
                                locale: "es" | "en" | null;
                                /** @enum {string} */
                                role: "admin" | "user";
                                studentId: number | null;
                            };
                        };
                    };
                };
                /** @description VALIDATION_ERROR naming the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        trace?: never;
    };
    "/api/v2/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a refresh token
         * @description The presented token becomes used; a used or revoked token presented again revokes its whole session.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        refreshToken: string;
                    };
                };
            };
            responses: {
                /** @description New tokens; the old refresh token is spent */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accessToken: string;
                            /** Format: date-time */
                            expiresAt: string;
                            expiresIn: number;
                            /** Format: date-time */
                            refreshExpiresAt: string;
                            refreshToken: string;
                            /** @enum {string} */
                            tokenType: "Bearer";
                            user: {
                                email: string;
                                employeeId: number | null;
                                id: number;
                                /** @enum {string|null} */
                                locale: "es" | "en" | null;
                                /** @enum {string} */
                                role: "admin" | "user";
                                studentId: number | null;
                            };
                        };
                    };
                };
                /** @description Malformed body */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INVALID_REFRESH_TOKEN, REFRESH_TOKEN_REUSED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/blocks/{blockId}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Close an open block for a student (the teacher of the student's registration in the subject, or an admin); records block.closed */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    blockId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        grade?: number | null;
                        studentId: number;
                    };
                };
            };
            responses: {
                /** @description Closed: now pending review */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            blockId: number;
                            /** @description ISO 8601 UTC timestamp */
                            closedAt: string;
                            /** @description 0–10, two decimals at most; null while ungraded */
                            grade: number | null;
                            /** @enum {string} */
                            newStatus: "pending";
                            /** @enum {boolean} */
                            ok: true;
                            /** @enum {string} */
                            previousStatus: "open";
                            studentBlockId: number;
                            studentId: number;
                        };
                    };
                };
                /** @description BLOCK_ID_REQUIRED, VALIDATION_ERROR (studentId, grade 0–10 with two decimals at most), INVALID_STATUS_FOR_CLOSE (naming the current status) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FORBIDDEN: neither an administrator nor the student's teacher */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description BLOCK_NOT_FOUND, STUDENT_BLOCK_NOT_FOUND (the student has no such block) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/blocks/completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Closed (approved) blocks of the students registered in a school course, the latest by default, newest approval first; a teacher sees those of their registrations */
        get: {
            parameters: {
                query?: {
                    limit?: string;
                    page?: string;
                    schoolCourseId?: string;
                    studentId?: string;
                    subjectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of completed blocks */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description ISO 8601 UTC timestamp */
                                approvedAt: string | null;
                                blockId: number;
                                blockName: string;
                                /** @description ISO 8601 UTC timestamp */
                                closedAt: string | null;
                                employeeId: number | null;
                                employeeName: string | null;
                                /** @description 0–10, two decimals at most; null while ungraded */
                                grade: number | null;
                                position: number;
                                studentBlockId: number;
                                studentId: number;
                                studentName: string;
                                subjectId: number;
                                subjectName: string;
                            }[];
                            meta: components["schemas"]["PageMeta"];
                            /** @enum {boolean} */
                            ok: true;
                            schoolCourseId: number;
                        };
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FORBIDDEN: a user who is not an employee */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description SCHOOL_COURSE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/blocks/grades/{studentId}/{subjectId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Each block of a subject for a student, in order, with status and grade, and the average of the graded ones (admin or the student's teacher) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    studentId: string;
                    subjectId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Grades */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description mean of the graded blocks, two decimals; null when none is graded */
                            average: number | null;
                            /** @description every block of the subject, in order */
                            blocks: {
                                /** @description ISO 8601 UTC timestamp */
                                approvedAt: string | null;
                                blockId: number;
                                blockName: string;
                                /** @description ISO 8601 UTC timestamp */
                                closedAt: string | null;
                                /** @description 0–10, two decimals at most; null while ungraded */
                                grade: number | null;
                                position: number;
                                /** @enum {string} */
                                status: "open" | "blocked" | "pending" | "closed";
                                studentBlockId: number;
                            }[];
                            gradedCount: number;
                            /** @enum {boolean} */
                            ok: true;
                            studentId: number;
                            studentName: string;
                            subjectId: number;
                            subjectName: string;
                        };
                    };
                };
                /** @description STUDENT_ID_REQUIRED, SUBJECT_ID_REQUIRED */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FORBIDDEN: neither an administrator nor the student's teacher */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description STUDENT_NOT_FOUND, SUBJECT_NOT_FOUND, STUDENT_BLOCK_NOT_FOUND (the student has no blocks in the subject) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/blocks/mine": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's students' blocks to act on (an employee): for each registration of the latest school course that names them, the subject's open, pending and rejected blocks, with the last rejection's reason */
        get: {
            parameters: {
                query?: {
                    subjectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The teacher's open, pending and rejected blocks */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description by subject, then student, then block position */
                            blocks: {
                                blockId: number;
                                blockName: string;
                                /** @description when it was last closed */
                                closedAt: string | null;
                                /** @description 0–10, two decimals at most; null while ungraded */
                                grade: number | null;
                                position: number;
                                /** @description the last rejection */
                                rejectedAt: string | null;
                                /** @description the last rejection's reason, as the administrator wrote it in the thread */
                                rejectionReason: string | null;
                                /**
                                 * @description open: to close; pending: closed, awaiting review; rejected: back with the teacher, not closed again yet
                                 * @enum {string}
                                 */
                                state: "open" | "pending" | "rejected";
                                /** @enum {string} */
                                status: "open" | "pending";
                                studentBlockId: number;
                                studentId: number;
                                studentName: string;
                                subjectId: number;
                                subjectName: string;
                            }[];
                            /** @enum {boolean} */
                            ok: true;
                            /** @description the latest school course; null when there is none */
                            schoolCourseId: number | null;
                            total: number;
                        };
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FORBIDDEN: a user who is not an employee */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/blocks/pending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Blocks awaiting review, grouped by student, oldest close first (admin) */
        get: {
            parameters: {
                query?: {
                    /** @description the nextCursor of the page before: the page after it (keyset; with limit, without page) */
                    after?: string;
                    limit?: string;
                    page?: string;
                    studentId?: string;
                    subjectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Pending blocks */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            byStudent: {
                                blocks: {
                                    blockId: number;
                                    blockName: string;
                                    /** @description ISO 8601 UTC timestamp */
                                    closedAt: string | null;
                                    employeeId: number | null;
                                    employeeName: string;
                                    /** @description 0–10, two decimals at most; null while ungraded */
                                    grade: number | null;
                                    /** @enum {string} */
                                    status: "pending";
                                    studentBlockId: number;
                                    subjectId: number;
                                    subjectName: string;
                                }[];
                                studentId: number;
                                studentName: string;
                            }[];
                            /** @description with limit: `after` of the next page, null when this page is not full; absent without limit */
                            nextCursor?: string | null;
                            /** @enum {boolean} */
                            ok: true;
                            /** @description number of pending blocks returned */
                            total: number;
                        };
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing, expired, or caller not an administrator */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/blocks/pending-rejected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Blocks pending review and blocks rejected and not closed again yet (admin) */
        get: {
            parameters: {
                query?: {
                    state?: "pending" | "rejected";
                    studentId?: string;
                    subjectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Pending and rejected blocks */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description pending ones first, oldest close first; then rejected ones, oldest rejection first */
                            blocks: {
                                blockId: number;
                                blockName: string;
                                /** @description when the teacher last closed it */
                                closedAt: string | null;
                                employeeId: number | null;
                                employeeName: string | null;
                                /** @description 0–10, two decimals at most; null while ungraded */
                                grade: number | null;
                                position: number;
                                /** @description the last rejection; also set on a pending block rejected before */
                                rejectedAt: string | null;
                                /**
                                 * @description pending: awaiting review; rejected: back with the teacher, not closed again yet
                                 * @enum {string}
                                 */
                                state: "pending" | "rejected";
                                /** @enum {string} */
                                status: "pending" | "open";
                                studentBlockId: number;
                                studentId: number;
                                studentName: string;
                                subjectId: number;
                                subjectName: string;
                            }[];
                            /** @enum {boolean} */
                            ok: true;
                            pendingCount: number;
                            rejectedCount: number;
                            total: number;
                        };
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing, expired, or caller not an administrator */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/blocks/pending/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many blocks await review: the badge (admin) */
        get: {
            parameters: {
                query?: {
                    subjectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The count */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description blocks awaiting review */
                            count: number;
                            /** @enum {boolean} */
                            ok: true;
                        };
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing, expired, or caller not an administrator */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/blocks/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or reject up to 100 pending blocks, each with the single review’s rules and its own event (admin)
         * @description Each item is reviewed on its own (its own transaction; under an Idempotency-Key one transaction with a savepoint per item), so one failing item leaves the others applied. 200 even when some fail: `results` gives each item’s outcome in order.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        items: {
                            /** @enum {string} */
                            action: "approve" | "reject";
                            /** @description approve only: the grade written with the approval */
                            grade?: number | null;
                            reason?: string | null;
                            studentBlockId: number;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Each item’s outcome */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            failed: number;
                            /** @enum {boolean} */
                            ok: true;
                            /** @description one per item, in the order given */
                            results: {
                                /** @description the single review's error code when it failed */
                                code?: string;
                                message?: string;
                                ok: boolean;
                                studentBlockId: number;
                            }[];
                            /** @description items applied */
                            reviewed: number;
                        };
                    };
                };
                /** @description VALIDATION_ERROR (items: 0 or more than 100, a duplicate studentBlockId, an unknown action, grade with reject, reason) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing, expired, or caller not an administrator */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/blocks/student-block/{studentBlockId}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve (records block.approved, unlocks the next block) or reject (back to open; the reason goes to the thread) a pending block (admin) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    studentBlockId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        action: "approve" | "reject";
                        reason?: string | null;
                    };
                };
            };
            responses: {
                /** @description Review applied */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            action: "approve" | "reject";
                            blockId: number;
                            message: string;
                            /** @enum {string} */
                            newStatus: "closed" | "open";
                            /** @description approve only, when another block follows */
                            nextBlockUnlocked?: boolean;
                            /** @enum {boolean} */
                            ok: true;
                            /** @enum {string} */
                            previousStatus: "pending";
                            studentBlockId: number;
                            studentId: number;
                            /**
                             * @description approve only, when it was the last block of the subject
                             * @enum {boolean}
                             */
                            subjectCompleted?: true;
                        };
                    };
                };
                /** @description STUDENT_BLOCK_ID_REQUIRED, INVALID_ACTION, INVALID_STATUS_FOR_REVIEW, VALIDATION_ERROR (reason) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing, expired, or caller not an administrator */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description STUDENT_BLOCK_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/blocks/student-block/{studentBlockId}/thread": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Messages between the student's teacher and the administration about one student block */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    studentBlockId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The thread */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            blockId: number;
                            /** @description oldest first */
                            messages: {
                                /** @description the author's employee name, when their login has one */
                                authorName: string | null;
                                /** @enum {string} */
                                authorRole: "admin" | "teacher";
                                authorUserId: number | null;
                                /** @description ISO 8601 UTC timestamp */
                                createdAt: string;
                                id: number;
                                /**
                                 * @description rejection: the reason an administrator gave when rejecting the block
                                 * @enum {string}
                                 */
                                kind: "message" | "rejection";
                                message: string;
                                studentBlockId: number;
                            }[];
                            /** @enum {boolean} */
                            ok: true;
                            /** @enum {string} */
                            status: "open" | "blocked" | "pending" | "closed";
                            studentBlockId: number;
                            studentId: number;
                        };
                    };
                };
                /** @description STUDENT_BLOCK_ID_REQUIRED */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FORBIDDEN: neither an administrator nor the student's teacher */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description STUDENT_BLOCK_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Add a message to a student block's thread (the student's teacher or an admin) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    studentBlockId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            responses: {
                /** @description Added */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description the author's employee name, when their login has one */
                                authorName: string | null;
                                /** @enum {string} */
                                authorRole: "admin" | "teacher";
                                authorUserId: number | null;
                                /** @description ISO 8601 UTC timestamp */
                                createdAt: string;
                                id: number;
                                /**
                                 * @description rejection: the reason an administrator gave when rejecting the block
                                 * @enum {string}
                                 */
                                kind: "message" | "rejection";
                                message: string;
                                studentBlockId: number;
                            };
                            /** @enum {boolean} */
                            ok: true;
                        };
                    };
                };
                /** @description STUDENT_BLOCK_ID_REQUIRED, VALIDATION_ERROR (message: 1–5000 characters) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description UNAUTHORIZED: token missing or expired */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FORBIDDEN: neither an administrator nor the student's teacher */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description STUDENT_BLOCK_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                /** @description PAYLOAD_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/calendar-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Calendar events (admin) */
        get: {
            parameters: {
                query?: {
                    centerId?: string;
                    employeeId?: string;
                    limit?: string;
                    page?: string;
                    subjectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                centerId: number;
                                employeeId: number | null;
                                /** @description ISO 8601 UTC timestamp */
                                endsAt: string;
                                id: number;
                                /** @description ISO 8601 UTC timestamp */
                                startsAt: string;
                                studentCount: number;
                                subjectId: number;
                                title: string | null;
                            }[];
                            meta: components["schemas"]["PageMeta"];
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create (admin) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        centerId: number;
                        employeeId?: number | null;
                        /** Format: date-time */
                        endsAt: string;
                        /** Format: date-time */
                        startsAt: string;
                        subjectId: number;
                        title?: string | null;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            centerId: number;
                            employeeId: number | null;
                            /** @description ISO 8601 UTC timestamp */
                            endsAt: string;
                            id: number;
                            /** @description ISO 8601 UTC timestamp */
                            startsAt: string;
                            studentCount: number;
                            subjectId: number;
                            title: string | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/calendar-events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Found */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            centerId: number;
                            employeeId: number | null;
                            /** @description ISO 8601 UTC timestamp */
                            endsAt: string;
                            id: number;
                            /** @description ISO 8601 UTC timestamp */
                            startsAt: string;
                            studentCount: number;
                            subjectId: number;
                            title: string | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a calendar event and its assignments (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            centerId: number;
                            employeeId: number | null;
                            /** @description ISO 8601 UTC timestamp */
                            endsAt: string;
                            id: number;
                            /** @description ISO 8601 UTC timestamp */
                            startsAt: string;
                            studentCount: number;
                            subjectId: number;
                            title: string | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        /** Update (admin) */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        centerId?: number;
                        employeeId?: number | null;
                        /** Format: date-time */
                        endsAt?: string;
                        /** Format: date-time */
                        startsAt?: string;
                        subjectId?: number;
                        title?: string | null;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            centerId: number;
                            employeeId: number | null;
                            /** @description ISO 8601 UTC timestamp */
                            endsAt: string;
                            id: number;
                            /** @description ISO 8601 UTC timestamp */
                            startsAt: string;
                            studentCount: number;
                            subjectId: number;
                            title: string | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        trace?: never;
    };
    "/api/v2/centers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Centers (admin) */
        get: {
            parameters: {
                query?: {
                    limit?: string;
                    page?: string;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                active: boolean;
                                address: string | null;
                                /** @description ISO 8601 UTC timestamp */
                                createdAt: string;
                                id: number;
                                name: string;
                            }[];
                            meta: components["schemas"]["PageMeta"];
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create (admin) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        address?: string | null;
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            address: string | null;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            id: number;
                            name: string;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/centers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Found */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            address: string | null;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            id: number;
                            name: string;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Deactivate a center (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            address: string | null;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            id: number;
                            name: string;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        /** Update (admin) */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean;
                        address?: string | null;
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            address: string | null;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            id: number;
                            name: string;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        trace?: never;
    };
    "/api/v2/employees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Employees (admin) */
        get: {
            parameters: {
                query?: {
                    limit?: string;
                    page?: string;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                active: boolean;
                                /** @description ISO 8601 UTC timestamp */
                                createdAt: string;
                                email: string | null;
                                id: number;
                                /** @enum {string} */
                                kind: "teacher" | "staff";
                                lastname: string;
                                name: string;
                                payrollCode: string | null;
                                taxId: string | null;
                                userId: number | null;
                            }[];
                            meta: components["schemas"]["PageMeta"];
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create (admin) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email?: string | null;
                        /** @enum {string} */
                        kind?: "teacher" | "staff";
                        lastname: string;
                        name: string;
                        payrollCode?: string | null;
                        taxId?: string | null;
                        userId?: number | null;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string | null;
                            id: number;
                            /** @enum {string} */
                            kind: "teacher" | "staff";
                            lastname: string;
                            name: string;
                            payrollCode: string | null;
                            taxId: string | null;
                            userId: number | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/employees/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Found */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string | null;
                            id: number;
                            /** @enum {string} */
                            kind: "teacher" | "staff";
                            lastname: string;
                            name: string;
                            payrollCode: string | null;
                            taxId: string | null;
                            userId: number | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Deactivate an employee; publishes employee.deleted (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string | null;
                            id: number;
                            /** @enum {string} */
                            kind: "teacher" | "staff";
                            lastname: string;
                            name: string;
                            payrollCode: string | null;
                            taxId: string | null;
                            userId: number | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        /** Update (admin) */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean;
                        /** Format: email */
                        email?: string | null;
                        /** @enum {string} */
                        kind?: "teacher" | "staff";
                        lastname?: string;
                        name?: string;
                        payrollCode?: string | null;
                        taxId?: string | null;
                        userId?: number | null;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string | null;
                            id: number;
                            /** @enum {string} */
                            kind: "teacher" | "staff";
                            lastname: string;
                            name: string;
                            payrollCode: string | null;
                            taxId: string | null;
                            userId: number | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        trace?: never;
    };
    "/api/v2/guardians": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Guardians (admin) */
        get: {
            parameters: {
                query?: {
                    limit?: string;
                    page?: string;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                active: boolean;
                                /** @description ISO 8601 UTC timestamp */
                                createdAt: string;
                                email: string;
                                id: number;
                                lastname: string;
                                name: string;
                                phone: string | null;
                            }[];
                            meta: components["schemas"]["PageMeta"];
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create (admin) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        lastname?: string;
                        name: string;
                        phone?: string | null;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string;
                            id: number;
                            lastname: string;
                            name: string;
                            phone: string | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/guardians/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Found */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string;
                            id: number;
                            lastname: string;
                            name: string;
                            phone: string | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Deactivate a guardian (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string;
                            id: number;
                            lastname: string;
                            name: string;
                            phone: string | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        /** Update (admin) */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean;
                        /** Format: email */
                        email?: string;
                        lastname?: string;
                        name?: string;
                        phone?: string | null;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string;
                            id: number;
                            lastname: string;
                            name: string;
                            phone: string | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        trace?: never;
    };
    "/api/v2/hours-bank/{employeeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a bank: totals, history (newest first) and history by type */
        get: {
            parameters: {
                query?: {
                    /** @description School course; the current (latest) one when omitted */
                    schoolCourseId?: string;
                };
                header?: never;
                path: {
                    /** @description Employee id (positive integer) */
                    employeeId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The bank */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                employeeId: number;
                                schoolCourseId: number;
                                totals: components["schemas"]["HoursTotals"];
                                tracking: {
                                    byType: {
                                        completed: components["schemas"]["HoursTransaction"][];
                                        pending: components["schemas"]["HoursTransaction"][];
                                    };
                                    /** @description Every row of the bank, newest first */
                                    transactions: components["schemas"]["HoursTransaction"][];
                                };
                            };
                            /** @enum {string} */
                            message: "ok";
                        };
                    };
                };
                /** @description `Employee ID is required` (missing or not a positive integer), VALIDATION_ERROR on the query */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description A user acting on another employee, or changing a bank */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description `Employee not found`, `No school course found` or `Hours bank not found` (no operation recorded yet) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/hours-bank/{employeeId}/completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add completed hours (first subtracted from pending, the remainder added to completed); admin only */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    /** @description Employee id (positive integer) */
                    employeeId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Transaction date; today (UTC) when omitted
                         * @example 2026-01-15
                         */
                        date?: string;
                        reason?: string;
                        /** @description School course; the current (latest) one when omitted */
                        schoolCourseId?: number;
                        /**
                         * @description Whole hours and/or minutes, lower case: "<H>h", "<M>m" or "<H>h <M>m" (spaces between the parts optional, surrounding whitespace ignored). Minutes below 60, total above 0 and below 1000h. Errors: INVALID_TIME_FORMAT, INVALID_MINUTES, INVALID_HOURS.
                         * @example 1h 30m
                         */
                        time: string;
                    };
                };
            };
            responses: {
                /** @description Registered */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                details: {
                                    /** @example 1h 30m */
                                    hoursAddedToCompleted: string;
                                    /** @example 1h 30m */
                                    hoursRegistered: string;
                                    /** @example 1h 30m */
                                    hoursSubtractedFromPending: string;
                                };
                                employeeId: number;
                                schoolCourseId: number;
                                totals: components["schemas"]["HoursTotals"];
                                transactionId: number;
                            };
                            /** @enum {string} */
                            message: "Completed hours registered successfully";
                        };
                    };
                };
                /** @description `Time is required`, INVALID_TIME_FORMAT, INVALID_MINUTES, INVALID_HOURS, `Employee ID is required`, VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description A user acting on another employee, or changing a bank */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description `Employee not found` or `No school course found` */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/hours-bank/{employeeId}/pending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add pending hours (first subtracted from completed, the remainder added to pending); admin only */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    /** @description Employee id (positive integer) */
                    employeeId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Transaction date; today (UTC) when omitted
                         * @example 2026-01-15
                         */
                        date?: string;
                        reason?: string;
                        /** @description School course; the current (latest) one when omitted */
                        schoolCourseId?: number;
                        /**
                         * @description Whole hours and/or minutes, lower case: "<H>h", "<M>m" or "<H>h <M>m" (spaces between the parts optional, surrounding whitespace ignored). Minutes below 60, total above 0 and below 1000h. Errors: INVALID_TIME_FORMAT, INVALID_MINUTES, INVALID_HOURS.
                         * @example 1h 30m
                         */
                        time: string;
                    };
                };
            };
            responses: {
                /** @description Registered */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                details: {
                                    /** @example 1h 30m */
                                    hoursAddedToPending: string;
                                    /** @example 1h 30m */
                                    hoursRegistered: string;
                                    /** @example 1h 30m */
                                    hoursSubtractedFromCompleted: string;
                                };
                                employeeId: number;
                                schoolCourseId: number;
                                totals: components["schemas"]["HoursTotals"];
                                transactionId: number;
                            };
                            /** @enum {string} */
                            message: "Pending hours registered successfully";
                        };
                    };
                };
                /** @description `Time is required`, INVALID_TIME_FORMAT, INVALID_MINUTES, INVALID_HOURS, `Employee ID is required`, VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description A user acting on another employee, or changing a bank */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description `Employee not found` or `No school course found` */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/hours-bank/transactions/{transactionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Edit a transaction: the original is reverted (a REVERSAL row) and a new one of the same type is created; admin only */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    /** @description Transaction id (positive integer) */
                    transactionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The original reason is kept when omitted */
                        reason?: string;
                        /**
                         * @description New time. Whole hours and/or minutes, lower case: "<H>h", "<M>m" or "<H>h <M>m" (spaces between the parts optional, surrounding whitespace ignored). Minutes below 60, total above 0 and below 1000h. Errors: INVALID_TIME_FORMAT, INVALID_MINUTES, INVALID_HOURS.
                         * @example 2h
                         */
                        time: string;
                    };
                };
            };
            responses: {
                /** @description Edited */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                details: {
                                    /** @example 1h 30m */
                                    newHours: string;
                                    /** @example 1h 30m */
                                    previousHours: string;
                                    /** @enum {string} */
                                    transactionType: "COMPLETED" | "PENDING";
                                };
                                employeeId: number;
                                newTransactionId: number;
                                oldTransactionId: number;
                                schoolCourseId: number;
                                totals: components["schemas"]["HoursTotals"];
                            };
                            /** @enum {string} */
                            message: "Transaction edited successfully";
                        };
                    };
                };
                /** @description `Time is required`, INVALID_TIME_FORMAT, INVALID_MINUTES, INVALID_HOURS, `Transaction ID is required` */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description A user acting on another employee, or changing a bank */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description `Transaction not found` (missing, inactive, or a REVERSAL row) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        post?: never;
        /** Delete a transaction (soft): it becomes inactive and a REVERSAL row undoes its effect; admin only */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    /** @description Transaction id (positive integer) */
                    transactionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                deletedTransaction: {
                                    id: number;
                                    /** @example 1h 30m */
                                    totalHours: string;
                                    /** @enum {string} */
                                    type: "COMPLETED" | "PENDING";
                                };
                                employeeId: number;
                                schoolCourseId: number;
                                totals: components["schemas"]["HoursTotals"];
                            };
                            /** @enum {string} */
                            message: "Transaction deleted successfully";
                        };
                    };
                };
                /** @description `Transaction ID is required` */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description A user acting on another employee, or changing a bank */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description `Transaction not found` (missing, inactive, or a REVERSAL row) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/incident/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Incidents with filters, most severe first (admin) */
        get: {
            parameters: {
                query?: {
                    employeeId?: string;
                    /** @description Created on or after this day (UTC) */
                    from?: string;
                    kind?: "CLOCK_IN_WHILE_OPEN" | "CLOCK_OUT_WITHOUT_OPEN" | "RECORD_OPEN_TOO_LONG" | "ABSENCE" | "LATE_CLOCK_IN";
                    limit?: string;
                    page?: string;
                    severity?: "low" | "medium" | "high";
                    /** @description `severity`: most severe first, then newest */
                    sort?: "severity" | "newest";
                    status?: "open" | "closed";
                    /** @description Created on or before this day (UTC) */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of incidents */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IncidentPage"];
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/incident/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Incident detail with files and messages (cached 24 h); a user reads only their own */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The incident */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["IncidentDetail"];
                        };
                    };
                };
                /** @description VALIDATION_ERROR (id) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INCIDENT_NOT_FOUND (also for another employee's) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an incident (admin). Soft: its key stays, so the check never re-creates it */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["IncidentSummary"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INCIDENT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/incident/{id}/admin-thread": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** An administrator writes on an incident: JSON `{message}`, or multipart/form-data with `message` and `files` */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        message: string;
                    };
                    "multipart/form-data": {
                        /** @description Up to 5 attachments of at most 10 MB each: application/pdf, image/png, image/jpeg, image/webp */
                        files?: string[];
                        message: string;
                    };
                };
            };
            responses: {
                /** @description The message */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["IncidentMessage"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR (message empty, too long, NUL), MALFORMED_MULTIPART */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INCIDENT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INCIDENT_CLOSED. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PAYLOAD_TOO_LARGE, FILE_TOO_LARGE (10 MB), TOO_MANY_FILES */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FILE_TYPE_NOT_ALLOWED, UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/incident/{id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Close an incident, with an optional closing note (admin) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /** @description A closing note, added to the thread */
                        message?: string;
                    };
                };
            };
            responses: {
                /** @description Closed */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["IncidentSummary"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INCIDENT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INCIDENT_CLOSED. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/incident/{id}/files/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download an attachment (whoever may read the incident) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    fileId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The file */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/octet-stream": string;
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INCIDENT_NOT_FOUND or FILE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/incident/{id}/thread": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The employee replies on their own incident: JSON `{message}`, or multipart/form-data with `message` and `files` */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        message: string;
                    };
                    "multipart/form-data": {
                        /** @description Up to 5 attachments of at most 10 MB each: application/pdf, image/png, image/jpeg, image/webp */
                        files?: string[];
                        message: string;
                    };
                };
            };
            responses: {
                /** @description The message */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["IncidentMessage"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR (message empty, too long, NUL), MALFORMED_MULTIPART */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Administrators use admin-thread */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INCIDENT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INCIDENT_CLOSED. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PAYLOAD_TOO_LARGE, FILE_TOO_LARGE (10 MB), TOO_MANY_FILES */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FILE_TYPE_NOT_ALLOWED, UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/incident/{id}/threads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The conversation of an incident, oldest message first (cached 24 h) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Messages */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IncidentThreads"];
                    };
                };
                /** @description VALIDATION_ERROR (id) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description INCIDENT_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/incident/my": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The employee's own incidents (cached 24 h) */
        get: {
            parameters: {
                query?: {
                    limit?: string;
                    page?: string;
                    status?: "open" | "closed";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of incidents */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IncidentPage"];
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_AN_EMPLOYEE */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** E-mails and pushes: sent, recorded, failed or parked, and why (admin) */
        get: {
            parameters: {
                query?: {
                    channel?: "email" | "push";
                    limit?: string;
                    page?: string;
                    /** @description E-mail address or user:<id> */
                    recipient?: string;
                    status?: "pending" | "sending" | "sent" | "recorded" | "failed" | "parked" | "skipped";
                    /** @description Deliveries to this user (push) */
                    userId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Delivery"][];
                            meta: components["schemas"]["PageMeta"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Invalid input (the failing fields in the message) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/opt-outs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Addresses unsubscribed from a type of mail by their link (guardians), newest first (admin) */
        get: {
            parameters: {
                query?: {
                    limit?: string;
                    page?: string;
                    /** @description Only this address's opt-outs (a guardian's e-mail, any case) */
                    recipient?: string;
                    type?: "block_approved" | "block_rejected" | "incident" | "payslip_published" | "attendance_reminder" | "attendance_warning" | "approval_digest";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["EmailOptOut"][];
                            meta: components["schemas"]["PageMeta"];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Invalid input (the failing fields in the message) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Undo a guardian's opt-out: that address gets that type of mail again from the next one (admin)
         * @description Mails already marked `skipped` stay so; the next mail of the type to the address is sent. The guardian can unsubscribe again from any later mail.
         */
        delete: {
            parameters: {
                query: {
                    /** @description The guardian's e-mail address (any case) */
                    recipient: string;
                    type: "block_approved" | "block_rejected" | "incident" | "payslip_published" | "attendance_reminder" | "attendance_warning" | "approval_digest";
                };
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Opt-out removed */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["EmailOptOut"];
                            message: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Invalid input (the failing fields in the message) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description No such opt-out (OPT_OUT_NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/preferences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's notification preferences: each type on each channel, on or off */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Every type × channel (defaults all on) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Every type × channel; defaults all on */
                                preferences: components["schemas"]["NotificationPreference"][];
                                /**
                                 * @description null: none set
                                 * @example {
                                 *       "start": "22:00",
                                 *       "end": "07:00",
                                 *       "timeZone": "Europe/Madrid"
                                 *     }
                                 */
                                quietHours: {
                                    end: string;
                                    start: string;
                                    timeZone: string;
                                } | null;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Invalid input (the failing fields in the message) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
            };
        };
        /** Switch types on or off per channel (the caller's own); critical types cannot be switched off */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        preferences?: {
                            /** @enum {string} */
                            channel: "email" | "push";
                            enabled: boolean;
                            /** @enum {string} */
                            type: "block_approved" | "block_rejected" | "incident" | "payslip_published" | "attendance_reminder" | "attendance_warning" | "approval_digest";
                        }[];
                        quietHours?: components["schemas"]["QuietHours"];
                    };
                };
            };
            responses: {
                /** @description The preferences after the change */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description Every type × channel; defaults all on */
                                preferences: components["schemas"]["NotificationPreference"][];
                                /**
                                 * @description null: none set
                                 * @example {
                                 *       "start": "22:00",
                                 *       "end": "07:00",
                                 *       "timeZone": "Europe/Madrid"
                                 *     }
                                 */
                                quietHours: {
                                    end: string;
                                    start: string;
                                    timeZone: string;
                                } | null;
                            };
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Invalid input, or a critical type switched off (CRITICAL_NOTIFICATION_TYPE, naming them) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's devices with a push token, most recently seen first (the tokens themselves are never answered) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The devices */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["DeviceToken"][];
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Invalid input (the failing fields in the message) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Register or update the push token of the user's device
         * @description One token per (user, device); a token registered by another user moves to this one.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RegisterDeviceTokenBody"];
                };
            };
            responses: {
                /** @description Device token registered successfully */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["DeviceToken"];
                            message: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Invalid input (the failing fields in the message) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description USER_ERASED: an erasure of this login ran (a registration arriving while it runs waits for it, then is refused) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/token/{deviceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove the push token of a device of the user */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    deviceId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Device token removed successfully */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            message: string;
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description Invalid input (the failing fields in the message) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description Device not found (another user’s device too) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/notifications/unsubscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The page of the unsubscribe link in a guardian's mail: says what would stop, with a button that confirms (no login; changes nothing)
         * @description The token is signed by notifications (HMAC-SHA256) and names one notification type and one address, with an expiry. A valid one answers a plain HTML page (no scripts) saying which mails would stop, with a form whose one button POSTs the same token; the GET itself records nothing, so a mail scanner that follows the link unsubscribes no one. An address already unsubscribed from the type: a page saying so. A forged, malformed or expired token: a plain HTML page saying so, 400.
         */
        get: {
            parameters: {
                query: {
                    /** @description The signed token of the link in the mail (one type, one address, an expiry) */
                    token: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The confirmation form (or: already unsubscribed) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description The link is not valid or has expired (a missing token: the JSON error naming `token`) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        /**
         * Unsubscribe an address from one type of mail: the page's button, or a mail client's one-click unsubscribe (RFC 8058; no login)
         * @description The token, in the query as in the link (and in the `List-Unsubscribe` header of the mail), names one type and one address. A valid one records the opt-out (the mail worker then records such mails as `skipped`) and answers a plain HTML page confirming it; again: a page saying it was already done, nothing changed. A forged, malformed or expired token: a plain HTML page saying so, 400, nothing changed.
         */
        post: {
            parameters: {
                query: {
                    /** @description The signed token of the link in the mail (one type, one address, an expiry) */
                    token: string;
                };
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/x-www-form-urlencoded": components["schemas"]["UnsubscribeOneClickBody"];
                };
            };
            responses: {
                /** @description Unsubscribed (or: already unsubscribed, nothing changed) */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description The link is not valid or has expired; nothing was changed (a missing token: the JSON error naming `token`) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/payslips": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Payslips (admin), newest first; `include=deleted` lists deleted and superseded ones too */
        get: {
            parameters: {
                query?: {
                    employeeId?: string;
                    /** @description `deleted`: deleted and superseded payslips too */
                    include?: "deleted";
                    limit?: string;
                    /** @description Month of `periodStart` (needs `year`) */
                    month?: string;
                    page?: string;
                    year?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of payslips */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PayslipsPage"];
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Upload one payslip for an employee (admin, multipart: `file` and the fields); publishes it and notifies the employee */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        employeeId: string;
                        /**
                         * Format: binary
                         * @description The PDF (checked by its bytes)
                         */
                        file: string;
                        /**
                         * Format: date
                         * @description Today in the academy's time zone when omitted
                         */
                        issuedOn?: string;
                        /** @example Nómina noviembre */
                        label: string;
                        /** Format: date */
                        periodEnd: string;
                        /** Format: date */
                        periodStart: string;
                    };
                };
            };
            responses: {
                /** @description The payslip */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["AdminPayslip"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR (fields, dates, periodEnd before periodStart, unknown fields), MALFORMED_MULTIPART, FILE_REQUIRED */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description EMPLOYEE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description REQUEST_TIMEOUT (the body stalled) */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description DUPLICATE_PAYSLIP (the same file for the same employee), EMPLOYEE_INACTIVE. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PAYLOAD_TOO_LARGE, FILE_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FILE_TYPE_NOT_ALLOWED (not a PDF by its bytes, whatever its name or type), UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PDF_ENCRYPTED, PDF_UNREADABLE, TOO_MANY_PAGES. Also `IDEMPOTENCY_KEY_REUSED`: this Idempotency-Key was used with a different request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PDF_CHECK_TIMEOUT (the PDF could not be checked in time: try again; Retry-After) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/payslips/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a payslip (admin): hidden from its employee at once; the file and the audit are kept until the retention period ends */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Why (kept in the audit until the retention period ends) */
                        reason: string;
                    };
                };
            };
            responses: {
                /** @description The deleted payslip */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["AdminPayslip"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR (reason) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PAYSLIP_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PAYSLIP_DELETED, PAYSLIP_SUPERSEDED. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/payslips/{id}/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download a payslip: the employee's own (the first download sets firstViewedAt), any for an admin */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The PDF (attachment, private, no-store) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": string;
                    };
                };
                /** @description VALIDATION_ERROR (id) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PAYSLIP_NOT_FOUND (also another employee's payslip, and a deleted one for its employee) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/payslips/{id}/replace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Publish a correction (admin, multipart `file` and optional fields): it supersedes the payslip (kept, hidden) and the employee is told it is a correction */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description The PDF (checked by its bytes)
                         */
                        file: string;
                        /**
                         * Format: date
                         * @description Today in the academy's time zone when omitted
                         */
                        issuedOn?: string;
                        label?: string;
                        /** Format: date */
                        periodEnd?: string;
                        /** Format: date */
                        periodStart?: string;
                    };
                };
            };
            responses: {
                /** @description The correction */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["AdminPayslip"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR (fields, dates, periodEnd before periodStart, unknown fields), MALFORMED_MULTIPART, FILE_REQUIRED */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PAYSLIP_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description REQUEST_TIMEOUT (the body stalled) */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PAYSLIP_DELETED, PAYSLIP_SUPERSEDED, DUPLICATE_PAYSLIP, EMPLOYEE_INACTIVE. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PAYLOAD_TOO_LARGE, FILE_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FILE_TYPE_NOT_ALLOWED (not a PDF by its bytes, whatever its name or type), UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PDF_ENCRYPTED, PDF_UNREADABLE, TOO_MANY_PAGES. Also `IDEMPOTENCY_KEY_REUSED`: this Idempotency-Key was used with a different request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PDF_CHECK_TIMEOUT (the PDF could not be checked in time: try again; Retry-After) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/payslips/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload the month's combined PDF (admin, multipart `file` and the fields): 202 at once; its pages are read and matched in the background */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description The PDF (checked by its bytes)
                         */
                        file: string;
                        /**
                         * Format: date
                         * @description Today in the academy's time zone when omitted
                         */
                        issuedOn?: string;
                        label: string;
                        /** @enum {string} */
                        matchBy: "taxId" | "payrollCode";
                        /** Format: date */
                        periodEnd: string;
                        /** Format: date */
                        periodStart: string;
                    };
                };
            };
            responses: {
                /** @description The batch, `reading` */
                202: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["PayslipBatch"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR (fields, dates, periodEnd before periodStart, unknown fields), MALFORMED_MULTIPART, FILE_REQUIRED */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description REQUEST_TIMEOUT (the body stalled) */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                /** @description PAYLOAD_TOO_LARGE, FILE_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description FILE_TYPE_NOT_ALLOWED (not a PDF by its bytes, whatever its name or type), UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PDF_ENCRYPTED, PDF_UNREADABLE, TOO_MANY_PAGES, SCANNED_PDF ("scanned PDFs cannot be matched": no text layer). Also `IDEMPOTENCY_KEY_REUSED`: this Idempotency-Key was used with a different request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PDF_CHECK_TIMEOUT (the PDF could not be checked in time: try again; Retry-After) */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/payslips/batches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A batch (admin): its state, the employees matched with their pages, the unmatched and ambiguous pages */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The batch */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["PayslipBatch"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR (id) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description BATCH_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Discard an unpublished batch and its files (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The batch, `discarded` */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["PayslipBatch"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR (id) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description BATCH_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description BATCH_PUBLISHED. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/payslips/batches/{id}/pages/{page}/assign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Assign a page of a ready batch to an employee by hand (admin) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                    page: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        employeeId: number;
                    };
                };
            };
            responses: {
                /** @description The batch */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["PayslipBatch"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description BATCH_NOT_FOUND, EMPLOYEE_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description BATCH_NOT_READY, EMPLOYEE_INACTIVE. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description PAGE_OUT_OF_RANGE. Also `IDEMPOTENCY_KEY_REUSED`: this Idempotency-Key was used with a different request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/payslips/batches/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Publish a ready batch (admin): every matched page run becomes a payslip, in one transaction, except runs already published (`duplicateOfPayslipId`: the same file); a second publish changes nothing */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The batch, `published`, with the payslip of each run */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["PayslipBatch"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR (id) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an administrator */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description BATCH_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description BATCH_NOT_READY (still reading, failed or discarded), NOTHING_TO_PUBLISH. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/payslips/my": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The token's employee's payslips, newest first (deleted and superseded ones are not listed) */
        get: {
            parameters: {
                query?: {
                    year?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The payslips */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MyPayslips"];
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_AN_EMPLOYEE */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/privacy-requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every request, the newest first, with each service state (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The requests */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** Format: date-time */
                                completedAt: string | null;
                                /** Format: date-time */
                                deadline: string;
                                id: number;
                                /** @enum {string} */
                                kind: "access" | "erasure";
                                /** Format: date-time */
                                openedAt: string;
                                openedByUserId: number;
                                parts: {
                                    /** Format: date-time */
                                    answeredAt: string | null;
                                    attempts: number;
                                    export: {
                                        entries: number;
                                        /** Format: date-time */
                                        expiresAt: string;
                                        sizeBytes: number;
                                    } | null;
                                    features: {
                                        entries: number;
                                        erased: {
                                            count: number;
                                            what: string;
                                        }[];
                                        feature: string;
                                        kept: {
                                            legalBasis: string;
                                            /** Format: date */
                                            until: string;
                                            what: string;
                                        }[];
                                        /** @enum {string} */
                                        status: "done" | "nothing-held";
                                    }[];
                                    reason: string | null;
                                    service: string;
                                    /** @enum {string} */
                                    status: "pending" | "done" | "nothing-held" | "failed";
                                }[];
                                /** Format: uuid */
                                requestId: string;
                                /** @enum {string} */
                                status: "open" | "completed" | "failed";
                                subject: {
                                    id: number;
                                    /** @enum {string} */
                                    kind: "employee" | "student" | "guardian";
                                };
                                waitingFor: string[];
                            }[];
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Open an access or erasure request for an employee, a student or a guardian (admin); publishes privacy.request.opened
         * @description A person already erased: 200 with that erasure request (its outcome) instead of a new one.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        kind: "access" | "erasure";
                        subject: {
                            id: number;
                            /** @enum {string} */
                            kind: "employee" | "student" | "guardian";
                        };
                    };
                };
            };
            responses: {
                /** @description The person was already erased: the erasure request that did it */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            audit: {
                                action: string;
                                /** Format: date-time */
                                at: string;
                                byUserId: number | null;
                                detail: string | null;
                            }[];
                            /** Format: date-time */
                            completedAt: string | null;
                            /** Format: date-time */
                            deadline: string;
                            id: number;
                            /** @enum {string} */
                            kind: "access" | "erasure";
                            /** Format: date-time */
                            openedAt: string;
                            openedByUserId: number;
                            parts: {
                                /** Format: date-time */
                                answeredAt: string | null;
                                attempts: number;
                                export: {
                                    entries: number;
                                    /** Format: date-time */
                                    expiresAt: string;
                                    sizeBytes: number;
                                } | null;
                                features: {
                                    entries: number;
                                    erased: {
                                        count: number;
                                        what: string;
                                    }[];
                                    feature: string;
                                    kept: {
                                        legalBasis: string;
                                        /** Format: date */
                                        until: string;
                                        what: string;
                                    }[];
                                    /** @enum {string} */
                                    status: "done" | "nothing-held";
                                }[];
                                reason: string | null;
                                service: string;
                                /** @enum {string} */
                                status: "pending" | "done" | "nothing-held" | "failed";
                            }[];
                            /** Format: uuid */
                            requestId: string;
                            /** @enum {string} */
                            status: "open" | "completed" | "failed";
                            subject: {
                                id: number;
                                /** @enum {string} */
                                kind: "employee" | "student" | "guardian";
                            };
                            waitingFor: string[];
                        };
                    };
                };
                /** @description Opened */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            audit: {
                                action: string;
                                /** Format: date-time */
                                at: string;
                                byUserId: number | null;
                                detail: string | null;
                            }[];
                            /** Format: date-time */
                            completedAt: string | null;
                            /** Format: date-time */
                            deadline: string;
                            id: number;
                            /** @enum {string} */
                            kind: "access" | "erasure";
                            /** Format: date-time */
                            openedAt: string;
                            openedByUserId: number;
                            parts: {
                                /** Format: date-time */
                                answeredAt: string | null;
                                attempts: number;
                                export: {
                                    entries: number;
                                    /** Format: date-time */
                                    expiresAt: string;
                                    sizeBytes: number;
                                } | null;
                                features: {
                                    entries: number;
                                    erased: {
                                        count: number;
                                        what: string;
                                    }[];
                                    feature: string;
                                    kept: {
                                        legalBasis: string;
                                        /** Format: date */
                                        until: string;
                                        what: string;
                                    }[];
                                    /** @enum {string} */
                                    status: "done" | "nothing-held";
                                }[];
                                reason: string | null;
                                service: string;
                                /** @enum {string} */
                                status: "pending" | "done" | "nothing-held" | "failed";
                            }[];
                            /** Format: uuid */
                            requestId: string;
                            /** @enum {string} */
                            status: "open" | "completed" | "failed";
                            subject: {
                                id: number;
                                /** @enum {string} */
                                kind: "employee" | "student" | "guardian";
                            };
                            waitingFor: string[];
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such person */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description A request for this person is still running. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/privacy-requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A request: its state per service, deadline, outcome and audit trail (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The request */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            audit: {
                                action: string;
                                /** Format: date-time */
                                at: string;
                                byUserId: number | null;
                                detail: string | null;
                            }[];
                            /** Format: date-time */
                            completedAt: string | null;
                            /** Format: date-time */
                            deadline: string;
                            id: number;
                            /** @enum {string} */
                            kind: "access" | "erasure";
                            /** Format: date-time */
                            openedAt: string;
                            openedByUserId: number;
                            parts: {
                                /** Format: date-time */
                                answeredAt: string | null;
                                attempts: number;
                                export: {
                                    entries: number;
                                    /** Format: date-time */
                                    expiresAt: string;
                                    sizeBytes: number;
                                } | null;
                                features: {
                                    entries: number;
                                    erased: {
                                        count: number;
                                        what: string;
                                    }[];
                                    feature: string;
                                    kept: {
                                        legalBasis: string;
                                        /** Format: date */
                                        until: string;
                                        what: string;
                                    }[];
                                    /** @enum {string} */
                                    status: "done" | "nothing-held";
                                }[];
                                reason: string | null;
                                service: string;
                                /** @enum {string} */
                                status: "pending" | "done" | "nothing-held" | "failed";
                            }[];
                            /** Format: uuid */
                            requestId: string;
                            /** @enum {string} */
                            status: "open" | "completed" | "failed";
                            subject: {
                                id: number;
                                /** @enum {string} */
                                kind: "employee" | "student" | "guardian";
                            };
                            waitingFor: string[];
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such request */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/privacy-requests/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An access request's export: one ZIP, streamed, with a JSON file per service and feature, the files and a README in the person's language (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The ZIP (attachment, private, no-store) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/zip": string;
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such request */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not an access request, or not every service has answered yet */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The export was removed (30 days after the answers) */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description A service holding a part cannot be reached */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/push-notifications/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a push message to all devices of the given users (internal)
         * @description Tokens of `userIds` (filtered by `platform`) are sent through FCM `sendEachForMulticast` in chunks of 500. A token FCM reports dead (`registration-token-not-registered`, `invalid-registration-token`) is deleted. Without Firebase credentials the message is recorded, not sent.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PushSendBody"];
                };
            };
            responses: {
                /** @description Send report (tokensCount 0 when the users have no token) */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PushSendResponse"];
                    };
                };
                /** @description Invalid input (the failing fields in the message) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description API key missing or wrong (`Invalid or missing API key`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                /** @description A send with this idempotencyKey is in progress or had another body. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SuccessError"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/registration/assign-students-to-event": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Make the set of students of an event the given one (admin: any event; user: only events they teach, only themselves as employeeId) */
        put: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        centerId?: number;
                        employeeId?: number | string;
                        eventId: number;
                        idsStudents: number[];
                        subjectId?: number;
                    };
                };
            };
            responses: {
                /** @description Applied; pending registrations come back in rejectedStudents */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                assignedStudents: number[];
                                employeeId: number | null;
                                eventId: number;
                                rejectedStudents: {
                                    reason: string;
                                    studentId: number;
                                }[];
                                removedStudents: number[];
                            };
                            /** @enum {string} */
                            status: "success";
                        };
                    };
                };
                /** @description Invalid input (EVENT_ID_REQUIRED: `eventId is required`) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
                /** @description Token missing, invalid or expired (`Invalid or expired token`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
                /** @description NOT_EVENT_TEACHER: a user who does not teach the event; NOT_OWN_EMPLOYEE_ID: a user naming another employee */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
                /** @description Event or employee not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/registration/students-assigned-to-event": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Students assigned to an event (admin, or the teacher of the event) */
        get: {
            parameters: {
                query: {
                    eventId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Students */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                employeeId: number | null;
                                eventId: number;
                                students: {
                                    /** @description ISO 8601 UTC timestamp */
                                    assignedAt: string;
                                    fullName: string;
                                    /** @enum {string|null} */
                                    registrationStatus: "pending" | "active" | "cancelled" | null;
                                    studentId: number;
                                }[];
                            };
                            /** @enum {string} */
                            status: "success";
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
                /** @description Token missing, invalid or expired (`Invalid or expired token`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
                /** @description NOT_EVENT_TEACHER: a user who does not teach the event */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
                /** @description Event not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/registration/students-by-subject-and-center": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Students registered in a subject at a center (latest course by default) */
        get: {
            parameters: {
                query: {
                    centerId: string;
                    schoolCourseId?: string;
                    subjectId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Students */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                schoolCourseId: number | null;
                                students: {
                                    employeeId: number | null;
                                    fullName: string;
                                    registrationId: number;
                                    /** @enum {string} */
                                    registrationStatus: "pending" | "active" | "cancelled";
                                    studentId: number;
                                }[];
                            };
                            /** @enum {string} */
                            status: "success";
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
                /** @description Token missing, invalid or expired (`Invalid or expired token`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StatusError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/registrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Registrations (admin) */
        get: {
            parameters: {
                query?: {
                    limit?: string;
                    page?: string;
                    schoolCourseId?: string;
                    status?: "pending" | "active" | "cancelled";
                    studentId?: string;
                    subjectId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                centerId: number;
                                /** @description ISO 8601 UTC timestamp */
                                createdAt: string;
                                employeeId: number | null;
                                id: number;
                                schoolCourseId: number;
                                /** @enum {string} */
                                status: "pending" | "active" | "cancelled";
                                studentId: number;
                                subjectId: number;
                            }[];
                            meta: components["schemas"]["PageMeta"];
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create (admin) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        centerId: number;
                        employeeId?: number | null;
                        schoolCourseId: number;
                        /** @enum {string} */
                        status?: "pending" | "active" | "cancelled";
                        studentId: number;
                        subjectId: number;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            centerId: number;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            employeeId: number | null;
                            id: number;
                            schoolCourseId: number;
                            /** @enum {string} */
                            status: "pending" | "active" | "cancelled";
                            studentId: number;
                            subjectId: number;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/registrations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Found */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            centerId: number;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            employeeId: number | null;
                            id: number;
                            schoolCourseId: number;
                            /** @enum {string} */
                            status: "pending" | "active" | "cancelled";
                            studentId: number;
                            subjectId: number;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a registration (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            centerId: number;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            employeeId: number | null;
                            id: number;
                            schoolCourseId: number;
                            /** @enum {string} */
                            status: "pending" | "active" | "cancelled";
                            studentId: number;
                            subjectId: number;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        /** Update (admin) */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        centerId?: number;
                        employeeId?: number | null;
                        /** @enum {string} */
                        status?: "pending" | "active" | "cancelled";
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            centerId: number;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            employeeId: number | null;
                            id: number;
                            schoolCourseId: number;
                            /** @enum {string} */
                            status: "pending" | "active" | "cancelled";
                            studentId: number;
                            subjectId: number;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        trace?: never;
    };
    "/api/v2/school-courses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List school courses, newest first, marking the latest */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Courses */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description ISO 8601 UTC timestamp */
                                createdAt: string;
                                endDate: string;
                                id: number;
                                isLatest: boolean;
                                name: string;
                                startDate: string;
                            }[];
                            latestSchoolCourseId: number | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create a school course (admin); publishes school-course.created */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: date */
                        endDate: string;
                        name: string;
                        /** Format: date */
                        startDate: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            endDate: string;
                            id: number;
                            isLatest: boolean;
                            name: string;
                            startDate: string;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Name already used. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/school-courses/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a school course (admin); 409 while it has registrations */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            endDate: string;
                            id: number;
                            isLatest: boolean;
                            name: string;
                            startDate: string;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The course still has registrations. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/students": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Students (admin) */
        get: {
            parameters: {
                query?: {
                    limit?: string;
                    page?: string;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @description ISO 8601 UTC timestamp */
                                createdAt: string;
                                email: string | null;
                                guardianId: number | null;
                                id: number;
                                lastname: string;
                                name: string;
                                /** @enum {string} */
                                status: "active" | "inactive" | "withdrawn";
                            }[];
                            meta: components["schemas"]["PageMeta"];
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create (admin) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email?: string | null;
                        guardianId?: number | null;
                        lastname: string;
                        name: string;
                        /** @enum {string} */
                        status?: "active" | "inactive" | "withdrawn";
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string | null;
                            guardianId: number | null;
                            id: number;
                            lastname: string;
                            name: string;
                            /** @enum {string} */
                            status: "active" | "inactive" | "withdrawn";
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/students/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Found */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string | null;
                            guardianId: number | null;
                            id: number;
                            lastname: string;
                            name: string;
                            /** @enum {string} */
                            status: "active" | "inactive" | "withdrawn";
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Set a student inactive (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string | null;
                            guardianId: number | null;
                            id: number;
                            lastname: string;
                            name: string;
                            /** @enum {string} */
                            status: "active" | "inactive" | "withdrawn";
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        /** Update (admin) */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email?: string | null;
                        guardianId?: number | null;
                        lastname?: string;
                        name?: string;
                        /** @enum {string} */
                        status?: "active" | "inactive" | "withdrawn";
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string | null;
                            guardianId: number | null;
                            id: number;
                            lastname: string;
                            name: string;
                            /** @enum {string} */
                            status: "active" | "inactive" | "withdrawn";
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        trace?: never;
    };
    "/api/v2/subjects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Subjects (admin) */
        get: {
            parameters: {
                query?: {
                    limit?: string;
                    page?: string;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                active: boolean;
                                blocks: {
                                    id: number;
                                    name: string;
                                    position: number;
                                }[];
                                /** @description ISO 8601 UTC timestamp */
                                createdAt: string;
                                id: number;
                                name: string;
                            }[];
                            meta: components["schemas"]["PageMeta"];
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create (admin) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        blocks?: string[];
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            blocks: {
                                id: number;
                                name: string;
                                position: number;
                            }[];
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            id: number;
                            name: string;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/subjects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Found */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            blocks: {
                                id: number;
                                name: string;
                                position: number;
                            }[];
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            id: number;
                            name: string;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Deactivate a subject (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            blocks: {
                                id: number;
                                name: string;
                                position: number;
                            }[];
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            id: number;
                            name: string;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        /** Update (admin) */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean;
                        blocks?: string[];
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            blocks: {
                                id: number;
                                name: string;
                                position: number;
                            }[];
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            id: number;
                            name: string;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        trace?: never;
    };
    "/api/v2/timerecord/clock-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Clock in (the token's employee). With a record already open: 409 TIME_RECORD_ALREADY_OPEN and a CLOCK_IN_WHILE_OPEN incident */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The device that made the clock (recorded on the record and on any incident it causes) */
                        deviceId?: string;
                        /** @enum {string} */
                        source: "App" | "Web";
                    };
                };
            };
            responses: {
                /** @description The record */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["TimeRecord"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR (source, deviceId) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_AN_EMPLOYEE (the token has no employee), EMPLOYEE_INACTIVE (clock-in of a deactivated employee), EMPLOYEE_DELETED (clock-out of an erased employee) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description See the summary. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/timerecord/clock-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Clock out the open record. Without one: 409 NO_OPEN_TIME_RECORD and a CLOCK_OUT_WITHOUT_OPEN incident (a repeat within minutes of the last clock-out: 409 ALREADY_CLOCKED_OUT, no incident) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The device that made the clock (recorded on the record and on any incident it causes) */
                        deviceId?: string;
                        /** @enum {string} */
                        source: "App" | "Web";
                    };
                };
            };
            responses: {
                /** @description The record */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["TimeRecord"];
                            message: string;
                        };
                    };
                };
                /** @description VALIDATION_ERROR (source, deviceId) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_AN_EMPLOYEE (the token has no employee), EMPLOYEE_INACTIVE (clock-in of a deactivated employee), EMPLOYEE_DELETED (clock-out of an erased employee) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description See the summary. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/timerecord/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Clock-in history with worked time per day (newest day first), paginated by day */
        get: {
            parameters: {
                query?: {
                    /** @description Admins: whose history (required for an admin without an employee of their own). Users: only their own */
                    employeeId?: string;
                    /** @description First day (inclusive); 30 days before `to` when omitted */
                    from?: string;
                    limit?: string;
                    page?: string;
                    /** @description Last day (inclusive); today when omitted */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Days with records */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["TimeRecordHistoryDay"][];
                            employeeId: number;
                            /** Format: date */
                            from: string;
                            meta: components["schemas"]["PageMeta"];
                            /** Format: date */
                            to: string;
                            totalWorkedMinutes: number;
                        };
                    };
                };
                /** @description VALIDATION_ERROR */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description A user reading another employee's history */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/timerecord/open": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the employee has an open time record, and which */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Open record state */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OpenRecord"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description NOT_AN_EMPLOYEE */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/timerecord/report.pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Monthly PDF report of the records and totals
         * @description In Spanish or English as `Accept-Language` asks (English otherwise; the answer names it in `Content-Language`); times in the academy's time zone.
         */
        get: {
            parameters: {
                query: {
                    /** @description Admins: whose report. Users: only their own (the default) */
                    employeeId?: string;
                    month: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The report */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/pdf": string;
                    };
                };
                /** @description VALIDATION_ERROR (month YYYY-MM) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description A user reading another employee's report */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Users (admin) */
        get: {
            parameters: {
                query?: {
                    limit?: string;
                    page?: string;
                    search?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                active: boolean;
                                /** @description ISO 8601 UTC timestamp */
                                createdAt: string;
                                email: string;
                                employeeId: number | null;
                                id: number;
                                /** @enum {string} */
                                role: "admin" | "user";
                                studentId: number | null;
                            }[];
                            meta: components["schemas"]["PageMeta"];
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create (admin) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        employeeId?: number | null;
                        password: string;
                        /** @enum {string} */
                        role: "admin" | "user";
                        studentId?: number | null;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string;
                            employeeId: number | null;
                            id: number;
                            /** @enum {string} */
                            role: "admin" | "user";
                            studentId: number | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflict. Also `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one (admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Found */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string;
                            employeeId: number | null;
                            id: number;
                            /** @enum {string} */
                            role: "admin" | "user";
                            studentId: number | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Deactivate a user (admin) */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string;
                            employeeId: number | null;
                            id: number;
                            /** @enum {string} */
                            role: "admin" | "user";
                            studentId: number | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        options?: never;
        head?: never;
        /** Update (admin) */
        patch: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        active?: boolean;
                        /** Format: email */
                        email?: string;
                        employeeId?: number | null;
                        password?: string;
                        /** @enum {string} */
                        role?: "admin" | "user";
                        studentId?: number | null;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            active: boolean;
                            /** @description ISO 8601 UTC timestamp */
                            createdAt: string;
                            email: string;
                            employeeId: number | null;
                            id: number;
                            /** @enum {string} */
                            role: "admin" | "user";
                            studentId: number | null;
                        };
                    };
                };
                /** @description Invalid input */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Token missing, invalid or expired (`Unauthorized`) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not allowed for this role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Not found */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                409: components["responses"]["IdempotencyKeyInUse"];
                422: components["responses"]["IdempotencyKeyReused"];
            };
        };
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AdminPayslip: {
            batchId: number | null;
            correction: boolean;
            /** Format: date-time */
            deletedAt: string | null;
            deletedByUserId: number | null;
            deleteReason: string | null;
            employeeId: number;
            employeeName: string | null;
            /**
             * Format: date-time
             * @description The first download by its employee (a receipt)
             */
            firstViewedAt: string | null;
            id: number;
            /** Format: date */
            issuedOn: string;
            label: string;
            /** Format: date */
            periodEnd: string;
            /** Format: date */
            periodStart: string;
            /** Format: date-time */
            publishedAt: string;
            sizeBytes: number;
            /** @enum {string} */
            status: "visible" | "deleted" | "superseded";
            supersededByPayslipId: number | null;
            supersedesPayslipId: number | null;
        };
        ConsoleSession: {
            academy: {
                /** @enum {string} */
                locale: "es" | "en";
                timeZone: string;
            };
            accessToken: string;
            csrfToken: string;
            /** Format: date-time */
            expiresAt: string;
            expiresIn: number;
            /** @enum {string} */
            tokenType: "Bearer";
            user: {
                email: string;
                employeeId: number | null;
                id: number;
                /** @enum {string|null} */
                locale: "es" | "en" | null;
                /** @enum {string} */
                role: "admin" | "user";
                studentId: number | null;
            };
        };
        Delivery: {
            attempts: number;
            /** @enum {string} */
            channel: "email" | "push";
            /** Format: date-time */
            createdAt: string;
            /** @description Push: token counts; e-mail: nothing */
            detail: {
                [key: string]: unknown;
            } | null;
            /** @description The event (or push send) it comes from */
            eventId: string;
            /** @example block.approved */
            eventType: string;
            id: number;
            /** @description Why the last attempt failed */
            lastError: string | null;
            /** Format: date-time */
            nextAttemptAt: string | null;
            /** @description E-mail address, or user:<id> for a push */
            recipient: string;
            /** Format: date-time */
            sentAt: string | null;
            /** @enum {string} */
            status: "pending" | "sending" | "sent" | "recorded" | "failed" | "parked" | "skipped";
            subject: string | null;
            template: string | null;
            /** Format: date-time */
            updatedAt: string;
            userId: number | null;
        };
        DeviceToken: {
            /** Format: date-time */
            createdAt: string;
            deviceId: string;
            /** Format: date-time */
            lastSeenAt: string;
            /** @enum {string} */
            platform: "ios" | "android";
            /** Format: date-time */
            updatedAt: string;
        };
        EmailOptOut: {
            /**
             * Format: date-time
             * @description When the unsubscribe link was confirmed
             */
            createdAt: string;
            /** @description The address, in lower case */
            recipient: string;
            /** @enum {string} */
            type: "block_approved" | "block_rejected" | "incident" | "payslip_published" | "attendance_reminder" | "attendance_warning" | "approval_digest";
        };
        Error: {
            /** @example VALIDATION_ERROR */
            code: string;
            details?: unknown;
            message: string;
            requestId: string;
        };
        HoursTotals: {
            /**
             * @description Decimal hours, 2 decimals (1.5 = 1h 30m)
             * @example 1.5
             */
            completedDecimal: number;
            /** @example 1h 30m */
            completedHours: string;
            /**
             * @description Decimal hours, 2 decimals (1.5 = 1h 30m)
             * @example 1.5
             */
            pendingDecimal: number;
            /** @example 1h 30m */
            pendingHours: string;
        };
        HoursTransaction: {
            /** @description Change this row made to the completed total, decimal hours (negative = subtracted) */
            completedAffected: number;
            /** Format: date-time */
            createdAt: string;
            /** @description User id of who made it */
            createdBy: number | null;
            /** Format: date */
            date: string;
            /**
             * @description Time of the operation (for a REVERSAL, of the operation undone)
             * @example 1h 30m
             */
            hours: string;
            /**
             * @description Decimal hours, 2 decimals (1.5 = 1h 30m)
             * @example 1.5
             */
            hoursDecimal: number;
            id: number;
            /** @description False once edited or deleted; REVERSAL rows are records of an undo and never active */
            isActive: boolean;
            /** @description Exact time of the operation in minutes */
            minutes: number;
            /** @description Change this row made to the pending total, decimal hours (negative = subtracted) */
            pendingAffected: number;
            reason: string | null;
            /** @description On a transaction created by an edit: the transaction it replaces */
            replacesTransactionId: number | null;
            /** @description On a REVERSAL: the transaction it undoes */
            reversesTransactionId: number | null;
            /** @enum {string} */
            type: "COMPLETED" | "PENDING" | "REVERSAL";
        };
        IncidentDetail: {
            /** Format: date-time */
            closedAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date
             * @description The employee-day of a day-based incident (absence, clock-out without record)
             */
            day: string | null;
            description: string;
            deviceId: string | null;
            employeeId: number;
            employeeName: string | null;
            files: components["schemas"]["IncidentFile"][];
            id: number;
            /** @enum {string} */
            kind: "CLOCK_IN_WHILE_OPEN" | "CLOCK_OUT_WITHOUT_OPEN" | "RECORD_OPEN_TOO_LONG" | "ABSENCE" | "LATE_CLOCK_IN";
            messageCount: number;
            messages: components["schemas"]["IncidentMessage"][];
            /**
             * Format: date-time
             * @description For a record left open: a proposed clock-out time, for the admin to confirm
             */
            proposedEndAt: string | null;
            /** @enum {string} */
            severity: "low" | "medium" | "high";
            /**
             * @description From the request that caused it; null for the scheduled check
             * @enum {string|null}
             */
            source: "App" | "Web" | null;
            /** @enum {string} */
            status: "open" | "closed";
            timeRecordId: number | null;
            /** Format: date-time */
            updatedAt: string;
        };
        IncidentFile: {
            contentType: string;
            /** Format: date-time */
            createdAt: string;
            fileName: string;
            id: number;
            messageId: number;
            sizeBytes: number;
            /** @description Download path (same authorization as the incident) */
            url: string;
        };
        IncidentMessage: {
            /** @enum {string} */
            authorRole: "employee" | "admin";
            authorUserId: number | null;
            /** Format: date-time */
            createdAt: string;
            files: components["schemas"]["IncidentFile"][];
            id: number;
            /** @description Stored and returned as plain text (HTML is not interpreted) */
            message: string;
        };
        IncidentPage: {
            data: components["schemas"]["IncidentSummary"][];
            meta: components["schemas"]["PageMeta"];
        };
        IncidentSummary: {
            /** Format: date-time */
            closedAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date
             * @description The employee-day of a day-based incident (absence, clock-out without record)
             */
            day: string | null;
            description: string;
            deviceId: string | null;
            employeeId: number;
            employeeName: string | null;
            id: number;
            /** @enum {string} */
            kind: "CLOCK_IN_WHILE_OPEN" | "CLOCK_OUT_WITHOUT_OPEN" | "RECORD_OPEN_TOO_LONG" | "ABSENCE" | "LATE_CLOCK_IN";
            messageCount: number;
            /**
             * Format: date-time
             * @description For a record left open: a proposed clock-out time, for the admin to confirm
             */
            proposedEndAt: string | null;
            /** @enum {string} */
            severity: "low" | "medium" | "high";
            /**
             * @description From the request that caused it; null for the scheduled check
             * @enum {string|null}
             */
            source: "App" | "Web" | null;
            /** @enum {string} */
            status: "open" | "closed";
            timeRecordId: number | null;
            /** Format: date-time */
            updatedAt: string;
        };
        IncidentThreads: {
            data: components["schemas"]["IncidentMessage"][];
            incidentId: number;
        };
        MyPayslip: {
            correction: boolean;
            id: number;
            /** Format: date */
            issuedOn: string;
            label: string;
            /** Format: date */
            periodEnd: string;
            /** Format: date */
            periodStart: string;
            /** Format: date-time */
            publishedAt: string;
            sizeBytes: number;
        };
        MyPayslips: {
            data: components["schemas"]["MyPayslip"][];
        };
        NotificationPreference: {
            /** @enum {string} */
            channel: "email" | "push";
            /** @description Critical types are always delivered and cannot be switched off */
            critical: boolean;
            enabled: boolean;
            /** @enum {string} */
            type: "block_approved" | "block_rejected" | "incident" | "payslip_published" | "attendance_reminder" | "attendance_warning" | "approval_digest";
        };
        OpenRecord: {
            hasOpenRecord: boolean;
            record: components["schemas"]["TimeRecord"] | null;
        };
        PageMeta: {
            currentPage: number;
            pageSize: number;
            totalItems: number;
            totalPages: number;
        };
        PayslipBatch: {
            ambiguousPages: {
                employeeIds: number[];
                page: number;
            }[];
            /** Format: date-time */
            createdAt: string;
            /** @description Why the batch could not be read (status `failed`) */
            failureReason: string | null;
            id: number;
            /** Format: date */
            issuedOn: string;
            label: string;
            /** @enum {string} */
            matchBy: "taxId" | "payrollCode";
            matches: {
                employeeId: number;
                employeeName: string | null;
                payslips: {
                    /** @description The employee's visible payslip these pages already are (the same file, e.g. the combined PDF uploaded again): publish leaves them out */
                    duplicateOfPayslipId: number | null;
                    fromPage: number;
                    payslipId: number | null;
                    toPage: number;
                }[];
            }[];
            pageCount: number;
            /** Format: date */
            periodEnd: string;
            /** Format: date */
            periodStart: string;
            /** Format: date-time */
            publishedAt: string | null;
            /** Format: date-time */
            readAt: string | null;
            sizeBytes: number;
            /** @enum {string} */
            status: "reading" | "ready" | "published" | "discarded" | "failed";
            unmatchedPages: {
                excerpt: string;
                page: number;
            }[];
        };
        PayslipsPage: {
            data: components["schemas"]["AdminPayslip"][];
            meta: components["schemas"]["PageMeta"];
        };
        PushSendBody: {
            body: string;
            /** @description Android notification channel */
            channelId?: string;
            /** @description Free object for deep-linking; values are strings (FCM) */
            data?: {
                [key: string]: string;
            };
            /** @description A retried send with the same key sends nothing and answers the first result */
            idempotencyKey?: string;
            /**
             * @description Only the tokens of this platform
             * @enum {string}
             */
            platform?: "ios" | "android";
            /** @enum {string} */
            priority?: "default" | "normal" | "high";
            title?: string;
            userIds: number[];
        };
        PushSendError: {
            /** @example messaging/registration-token-not-registered */
            code: string;
            deviceId: string;
            message: string;
            userId: number;
        };
        PushSendResponse: {
            errorCount: number;
            errors: components["schemas"]["PushSendError"][];
            requestedUserIds: number[];
            success: boolean;
            successCount: number;
            tokensCount: number;
        };
        /**
         * @example {
         *       "start": "22:00",
         *       "end": "07:00",
         *       "timeZone": "Europe/Madrid"
         *     }
         */
        QuietHours: {
            end: string;
            start: string;
            timeZone: string;
        } | null;
        RegisterDeviceTokenBody: {
            /**
             * @description Stable id of the device (one token per user and device)
             * @example pixel-8-5f2a
             */
            deviceId: string;
            /** @enum {string} */
            platform: "ios" | "android";
            /** @description FCM registration token of the app on that device */
            token: string;
        };
        StatusError: {
            code?: string;
            message: string;
            requestId?: string;
            /** @enum {string} */
            status: "error";
        };
        SuccessError: {
            code?: string;
            message: string;
            requestId?: string;
            /** @enum {boolean} */
            success: false;
        };
        TimeRecord: {
            /** Format: date-time */
            clockInAt: string;
            clockInDeviceId: string | null;
            /** @enum {string} */
            clockInSource: "App" | "Web";
            /** Format: date-time */
            clockOutAt: string | null;
            clockOutDeviceId: string | null;
            /** @enum {string|null} */
            clockOutSource: "App" | "Web" | null;
            employeeId: number;
            id: number;
            /** @description Whole minutes from clock-in to clock-out (to now while open) */
            workedMinutes: number;
        };
        TimeRecordHistoryDay: {
            /** Format: date */
            date: string;
            records: components["schemas"]["TimeRecord"][];
            /**
             * @description `<H>h <M>m`
             * @example 7h 30m
             */
            worked: string;
            workedMinutes: number;
        };
        /** @description RFC 8058's one-click body, as mail clients send it; the page's own button sends none. Not read. */
        UnsubscribeOneClickBody: {
            /** @enum {string} */
            "List-Unsubscribe"?: "One-Click";
        };
    };
    responses: {
        /** @description `IDEMPOTENCY_KEY_IN_USE`: a request with this Idempotency-Key is still running; retry after `Retry-After` seconds */
        IdempotencyKeyInUse: {
            headers: {
                /** @description Seconds to wait before retrying */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description `IDEMPOTENCY_KEY_REUSED`: this Idempotency-Key was used with a different request */
        IdempotencyKeyReused: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description A key of your choice (1 to 255 printable ASCII characters, e.g. a UUID) that makes a retried write happen once: the same key with the same request (method, path, body) answers the first outcome again, 2xx or 4xx, with `Idempotent-Replayed: true`, for 24 hours (`IDEMPOTENCY_TTL_HOURS`). Keys are per user and per route. A 5xx is not remembered, so its retry runs. A malformed key is a 400 `INVALID_IDEMPOTENCY_KEY`. */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description `true` when this answer is the stored outcome of an earlier request with the same Idempotency-Key (the write was not done again) */
        IdempotentReplayed: "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
