import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type OpenApiNode = Record<string, any>;

/** What the checker is shown of an answer. */
export interface ReceivedAnswer {
  method: string;
  /** The request's path, with or without a query string. */
  path: string;
  status: number;
  contentType: string | null;
  /** The parsed JSON body, or the text of any other. */
  body: unknown;
  text: string;
}

/** Checks answers against the OpenAPI document: undefined when one matches, else what is wrong with it. */
export interface AnswerContract {
  mismatchOf: (answer: ReceivedAnswer) => string | undefined;
}

/** Statuses whose answers have no body, whatever the operation. */
const BODILESS = new Set([204, 304]);

/** Outside `/api`, files are served as they are (uploaded images, the crawler file): not operations of the document. */
const SERVED_FILES = /^\/(?!api(?:\/|$))/;

interface DocumentedPath {
  template: string;
  pattern: RegExp;
  /** Fewer parameters first, so `/api/notifications/read-all` wins over a `{id}`. */
  parameters: number;
}

function documentedPaths(document: OpenApiNode): DocumentedPath[] {
  return Object.keys(document.paths)
    .map((template) => {
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+');
      return { template, pattern: new RegExp(`^${source}$`), parameters: (template.match(/\{/g) ?? []).length };
    })
    .sort((a, b) => a.parameters - b.parameters);
}

const pointerOf = (...keys: string[]) => `openapi#/${keys.map((key) => key.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 8)
    .map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`)
    .join('; ');
}

/** The media type an answer's Content-Type names, without its parameters. */
const mediaTypeOf = (contentType: string | null) => contentType?.split(';')[0]?.trim().toLowerCase() ?? '';

export function answerContract(document: OpenApiNode): AnswerContract {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document, 'openapi');
  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (pointer: string) => {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: pointer });
      validators.set(pointer, validate);
    }
    return validate;
  };
  const paths = documentedPaths(document);

  const bodyMismatch = (pointer: string, answer: ReceivedAnswer, where: string) => {
    const validate = validatorOf(pointer);
    return validate(answer.body) ? undefined : `${where}: the answer does not match its documented schema: ${describeErrors(validate.errors)}\n${answer.text.slice(0, 2000)}`;
  };

  return {
    mismatchOf(answer) {
      const method = answer.method.toUpperCase();
      const pathname = new URL(answer.path, 'http://localhost').pathname;
      const where = `${method} ${pathname} answered ${answer.status}`;
      const mediaType = mediaTypeOf(answer.contentType);
      if (method === 'OPTIONS') {
        // A preflight on a path the service serves; a path it does not serve is the JSON 404 whatever the method.
        if (answer.status === 204) return undefined;
        if (answer.status === 404 && mediaType === 'application/json') return bodyMismatch(pointerOf('components', 'schemas', 'Error'), answer, where);
        return `${where}: a preflight answers 204, and an unknown path the JSON 404`;
      }
      const template = paths.find((candidate) => candidate.pattern.test(pathname))?.template;
      const operation = template === undefined ? undefined : document.paths[template][method === 'HEAD' ? 'get' : method.toLowerCase()];
      if (!operation) {
        // No operation answers here: an unknown path (404) or method (405), in the error envelope.
        if (mediaType === 'application/json') return bodyMismatch(pointerOf('components', 'schemas', 'Error'), answer, where);
        return SERVED_FILES.test(pathname) ? undefined : `${where}: not an operation of the document, and not the JSON error envelope`;
      }
      const response = operation.responses[String(answer.status)];
      if (!response) return `${where}: the status is not documented for ${method} ${template}`;
      if (BODILESS.has(answer.status) || method === 'HEAD') return undefined;
      const content = response.content as OpenApiNode | undefined;
      if (!content?.[mediaType]) return `${where}: its Content-Type ${answer.contentType ?? '(none)'} is not documented for this status`;
      if (mediaType !== 'application/json') return undefined;
      const operationKey = method === 'HEAD' ? 'get' : method.toLowerCase();
      return bodyMismatch(pointerOf('paths', template!, operationKey, 'responses', String(answer.status), 'content', mediaType, 'schema'), answer, where);
    },
  };
}

const contracts = new Map<string, Promise<AnswerContract>>();

/** The contract a server serves (its `/api/openapi.json`), read once per server. */
export function servedContract(baseUrl: string): Promise<AnswerContract> {
  let contract = contracts.get(baseUrl);
  if (!contract) {
    contract = fetch(`${baseUrl}/api/openapi.json`)
      .then(async (response) => answerContract((await response.json()) as OpenApiNode))
      .catch((error: unknown) => {
        contracts.delete(baseUrl);
        throw error;
      });
    contracts.set(baseUrl, contract);
  }
  return contract;
}

/** Fails (throws) when an answer of the server at `baseUrl` does not match the document it serves. */
export async function assertAnswerMatchesContract(baseUrl: string, answer: ReceivedAnswer): Promise<void> {
  const mismatch = (await servedContract(baseUrl)).mismatchOf(answer);
  if (mismatch) throw new Error(`Answer outside the API contract: ${mismatch}`);
}
