import fs from 'node:fs';
import { reportFailure } from '../lib/cli/failure.js';
import { log } from '../lib/log.js';
import { API_TYPES_FILE, apiTypesSource } from './api-types.js';

/** `npm run api:types`: writes the client types from the OpenAPI document; commit the result. */
apiTypesSource()
  .then((source) => {
    fs.writeFileSync(API_TYPES_FILE, source);
    log.info('client types written', { file: API_TYPES_FILE });
  })
  .catch(reportFailure);
