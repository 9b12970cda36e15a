// Where GraphQL's own errors become the spec's error entries (interface.md, Errors): validation failures as
// VALIDATION_FAILED entries with a localized sentence of their own, and the errors of an execution as
// `errors[]` entries with the response `path`, `extensions.code`, the input path at `extensions.path`
// (`["input",…]`) and per-error `extensions.metadata`. graphql-js writes English; the sentences here come
// from the message table, filled with the names GraphQL reported (fields, types, variables), never with
// its text.

import { type DocumentNode, type GraphQLError, type GraphQLSchema, getOperationAST, getVariableValues, print } from 'graphql';
import { ApiError, type ErrorEntry, isServerError } from '../errors.js';
import { type Language, message } from '../i18n/messages.js';

type Entry = Omit<ErrorEntry, 'code'>;

/** graphql-js validation messages we give their own sentence, with the names they carry. */
const VALIDATION_PATTERNS: readonly [RegExp, string, readonly string[]][] = [
  [/^Cannot query field "([^"]+)" on type "([^"]+)"/, 'VALIDATION_FAILED.graphql_unknown_field', ['field', 'type']],
  [/^Unknown argument "([^"]+)" on field "([^"]+)"/, 'VALIDATION_FAILED.graphql_unknown_argument', ['argument', 'field']],
  [
    /^Field "([^"]+)" argument "([^"]+)" of type "([^"]+)" is required/,
    'VALIDATION_FAILED.graphql_missing_argument',
    ['field', 'argument', 'type'],
  ],
  [/^Field "([^"]+)" of type "[^"]+" must have a selection of subfields/, 'VALIDATION_FAILED.graphql_needs_selection', ['field']],
  [/^Field "([^"]+)" must not have a selection/, 'VALIDATION_FAILED.graphql_no_selection', ['field']],
  [/^(?:Expected value of type|Field "[^"]+" of required type) "([^"]+)"/, 'VALIDATION_FAILED.graphql_value', ['type']],
  [/^Expected type "([^"]+)"/, 'VALIDATION_FAILED.graphql_value', ['type']],
];

/** A VALIDATION_FAILED entry for one graphql-js validation error. */
export function validationEntry(error: GraphQLError): Entry {
  for (const [pattern, messageKey, names] of VALIDATION_PATTERNS) {
    const m = pattern.exec(error.message);
    if (!m) continue;
    const messageParams: Record<string, string> = {};
    names.forEach((name, i) => {
      messageParams[name] = m[i + 1] ?? '';
    });
    return { messageKey, messageParams };
  }
  return { messageKey: 'VALIDATION_FAILED.graphql_invalid' };
}

/** graphql-js's variable messages: the variable, and where inside its value the problem is. */
const VARIABLE = /^Variable "\$([^"]+)"(?:.*? at "([^"]+)")?/;

/**
 * The 400 for variables that do not fit their declared types (graphql-jit refuses them before running
 * anything, but names only the innermost field). graphql-js coerces them again, on this failure path only,
 * to say which variable and where inside its value: one entry per problem.
 */
export function variablesError(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
): ApiError {
  const definitions = getOperationAST(document, operationName)?.variableDefinitions ?? [];
  const { errors } = getVariableValues(schema, definitions, variables, { maxErrors: 50 });
  const entries = (errors ?? []).map((error): Entry => {
    const m = VARIABLE.exec(error.message);
    const name = m?.[1] ?? '?';
    const definition = definitions.find((d) => d.variable.name.value === name);
    const type = definition ? print(definition.type) : '?';
    return m?.[2]
      ? { messageKey: 'VALIDATION_FAILED.graphql_variable_at', messageParams: { variable: `$${name}`, type, at: m[2] } }
      : { messageKey: 'VALIDATION_FAILED.graphql_variable', messageParams: { variable: `$${name}`, type } };
  });
  return ApiError.validation(entries.length > 0 ? entries : [{ messageKey: 'VALIDATION_FAILED.graphql_invalid' }]);
}

/** One entry of a GraphQL response's `errors`. */
export interface GraphqlErrorEntry {
  message: string;
  path?: readonly (string | number)[];
  extensions: { code: string; path?: (string | number)[]; metadata?: unknown };
}

/**
 * The `errors` of an execution, localized. A resolver's ApiError gives one entry per failed validation, each
 * at the field's response path; any other failure (a bug) is one INTERNAL_ERROR entry, reported to `onBug`.
 * A 5xx code keeps one entry with its sentence and the response path (no input path, no metadata).
 */
export function executionErrors(errors: readonly GraphQLError[], lang: Language, onBug: (error: unknown) => void): GraphqlErrorEntry[] {
  const out: GraphqlErrorEntry[] = [];
  for (const error of errors) {
    const original = error.originalError;
    const path = error.path;
    if (!(original instanceof ApiError)) {
      onBug(original ?? error);
      out.push({ message: message(lang, 'INTERNAL_ERROR'), ...(path ? { path } : {}), extensions: { code: 'INTERNAL_ERROR' } });
      continue;
    }
    if (isServerError(original.status)) {
      // Our own sentence when the failure has one (a field not served yet); otherwise the generic one.
      const first = original.entries[0];
      const text = message(lang, first?.messageKey ?? original.code, first?.messageParams);
      out.push({ message: text, ...(path ? { path } : {}), extensions: { code: original.code } });
      continue;
    }
    for (const e of original.entries) {
      const entry: GraphqlErrorEntry = {
        message: e.message ?? message(lang, e.messageKey ?? e.code, e.messageParams),
        ...(path ? { path } : {}),
        extensions: { code: e.code },
      };
      if (e.path) entry.extensions.path = e.path;
      const metadata = e.metadata ?? original.metadata;
      if (metadata !== undefined) entry.extensions.metadata = metadata;
      out.push(entry);
    }
  }
  return out;
}
