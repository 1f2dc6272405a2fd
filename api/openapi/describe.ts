// The descriptor of one route in the OpenAPI document (docs/openapi.md): what the route is for,
// who may call it, the yup schemas it validates its body and query with (the very objects the
// route passes to parseBody/parseQuery, so the document cannot drift from the validation) and the
// object it answers with (a name from src/objects/schemas.ts). api/openapi/document.ts turns the
// descriptors into the document; the contract tests check that every route of the router has one.
import type { yup } from '../validate';
import type { JsonSchema } from '../../src/objects/json-schema';
import type { errors } from '../../src/errors';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';

/**
 * Who may call a route:
 * - `secret`: a secret API key (`Authorization: Bearer sk_…`) and `X-Merchant-Id`;
 * - `secret_or_publishable`: as `secret`, or a publishable key (`pk_…`) from a browser;
 * - `secret_no_merchant`: a secret key; `X-Merchant-Id` may be left out;
 * - `dashboard`: a signed-in dashboard session (cookie; writes need `X-CSRF-Token`); API keys are refused (403 wrong_auth_method);
 * - `portal`: a customer-portal session (cookie; actions need `X-CSRF-Token`), same origin only;
 * - `checkout`: the checkout page's own calls (same origin; a session id or client secret names the session);
 * - `none`: no credentials.
 */
export type RouteAuth = 'secret' | 'secret_or_publishable' | 'secret_no_merchant' | 'dashboard' | 'portal' | 'checkout' | 'none';

/** How a success response's body is encoded. */
export type BodyKind = 'json' | 'html' | 'text' | 'pdf' | 'csv' | 'zip' | 'javascript' | 'css' | 'none';

export type ErrorCode = ReturnType<(typeof errors)[keyof typeof errors]>['code'];

export interface ExtraResponse {
  status: number;
  description: string;
  kind?: BodyKind;
  /** JSON body: a component name or a schema. */
  schema?: string | JsonSchema;
}

export interface RouteDoc {
  method: HttpMethod;
  /** The path as the router registers it (`/v1/customers/:id`). */
  path: string;
  /** The operation's id in the document: verb then noun (`createCustomer`, `listInvoices`, `cancelSubscription`; test/unit/operation-ids.test.ts). */
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  auth: RouteAuth;
  /** The yup schema the route validates its JSON body with. */
  body?: yup.AnyObjectSchema;
  /** For a body the domain checks (no yup schema at the edge): its JSON schema. */
  bodyJson?: JsonSchema;
  /** The yup schema the route validates its query with. */
  query?: yup.AnyObjectSchema;
  /** A list: `limit` and `starting_after` in the query, `{ data: [<list>], has_more }` in the answer. */
  list?: string;
  /** The success status (default 200; 201 for a creation). */
  status?: number;
  /** What the success body is (default json). */
  kind?: BodyKind;
  /** The success body: a component name (src/objects/schemas.ts, or this module's own) or a schema. */
  response?: string | JsonSchema;
  /** Other answers of the route besides its success and the error envelope. */
  also?: ExtraResponse[];
  /** Error codes specific to the route, beyond those of its auth, body and path (docs/errors.md). */
  errors?: ErrorCode[];
  /** Examples of this operation (they win over recorded ones in docs/openapi-examples.json). */
  examples?: OperationExample;
  /** Served by a middleware before the router rather than a router route (so not in app.router.stack). */
  outsideRouter?: boolean;
}

/**
 * An example of one operation (docs/openapi.md "Examples"): its request body, its path and query
 * parameters, its success answer and an error answer per status, each recorded from a real call.
 */
export interface OperationExample {
  request?: unknown;
  parameters?: Record<string, unknown>;
  /**
   * The success answer. `media` when not JSON; `summary` says what the example is when it is not
   * the whole answer (an excerpt; a PDF's or ZIP's size and first bytes, with `body` null).
   */
  response?: { status: number; body: unknown; media?: string; summary?: string };
  /** An error answer (the envelope) per status, `"404"`. */
  errors?: Record<string, unknown>;
}

/** Recorded examples by `"<METHOD> <OpenAPI path>"` (`"POST /v1/customers"`, `"GET /v1/customers/{id}"`). */
export type RecordedExamples = Record<string, OperationExample>;

/** Declares a route's descriptor (a typed identity: the type checks the descriptor). */
export function doc(d: RouteDoc): RouteDoc {
  return d;
}

/** `/v1/customers/:id` → `/v1/customers/{id}`. */
export function openApiPath(routerPath: string): string {
  return routerPath.replace(/:(\w+)/g, '{$1}');
}

/** The description of the test-helper routes. */
export const TEST_MODE_ONLY = 'Test mode only (a live key gets 403 test_mode_only).';
