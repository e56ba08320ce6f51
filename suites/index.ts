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

export const catalogue: Check[] = [
  // general
  jsonResponses,
  // methods
  readCollectionAndItem,
  createAnswers201,
  createLocation,
  changeVisible,
  deleteRemoves,
  // errors
  notFound404,
  noServerErrors,
  noErrorIn2xx,
];
