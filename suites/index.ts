// The catalogue: every check, listed explicitly (a test keeps it in step with the folders).
import type { Check } from '../src/core/check.js';
import readCollectionAndItem from './methods/read-collection-and-item.js';
import createAnswers201 from './methods/create-answers-201.js';
import createLocation from './methods/create-location.js';
import changeVisible from './methods/change-visible.js';
import deleteRemoves from './methods/delete-removes.js';
import notFound404 from './errors/not-found-404.js';
import noServerErrors from './errors/no-server-errors.js';
import noErrorIn2xx from './errors/no-error-in-2xx.js';
import jsonResponses from './general/json-responses.js';
import rateLimit429 from './limits/rate-limit-429.js';
import rateLimitRetry from './limits/rate-limit-retry.js';
import versionInPath from './versioning/version-in-path.js';
import unknownVersion from './versioning/unknown-version.js';
import webhookDelivery from './webhooks/webhook-delivery.js';
import webhookSignature from './webhooks/webhook-signature.js';
import matchesSchema from './schema/matches-schema.js';
import statelessRequests from './general/stateless-requests.js';
import missingCredentials401 from './auth/missing-credentials-401.js';
import invalidCredentials401 from './auth/invalid-credentials-401.js';
import forbidden403 from './auth/forbidden-403.js';
import bearerChallenge from './auth/bearer-challenge.js';
import pathsAreNouns from './resources/paths-are-nouns.js';
import itemUrlNamesOne from './resources/item-url-names-one.js';
import jsonBodyRequired from './methods/json-body-required.js';
import getChangesNothing from './idempotency/get-changes-nothing.js';
import putRepeatable from './idempotency/put-repeatable.js';
import deleteRepeatable from './idempotency/delete-repeatable.js';
import idempotencyKeyOnce from './idempotency/idempotency-key-once.js';
import malformed400 from './errors/malformed-400.js';
import errorBodyShape from './errors/error-body-shape.js';

export const catalogue: Check[] = [
  // general
  jsonResponses,
  statelessRequests,
  // auth
  missingCredentials401,
  invalidCredentials401,
  forbidden403,
  bearerChallenge,
  // resources
  pathsAreNouns,
  itemUrlNamesOne,
  // methods
  readCollectionAndItem,
  createAnswers201,
  createLocation,
  changeVisible,
  deleteRemoves,
  jsonBodyRequired,
  // idempotency
  getChangesNothing,
  putRepeatable,
  deleteRepeatable,
  idempotencyKeyOnce,
  // errors
  notFound404,
  noServerErrors,
  noErrorIn2xx,
  malformed400,
  errorBodyShape,
  // limits (exclusive: run last and alone, the burst before the retry)
  rateLimit429,
  rateLimitRetry,
  // versioning
  versionInPath,
  unknownVersion,
  // webhooks
  webhookDelivery,
  webhookSignature,
  // schema
  matchesSchema,
];
