import * as v from 'valibot';

export const ServiceInfoView = v.object({
  name: v.pipe(v.string(), v.examples(['Marketplace Listing API'])),
  version: v.pipe(v.string(), v.examples(['0.1.0'])),
  links: v.object({ docs: v.literal('/api/docs'), openapi: v.literal('/api/openapi.json'), health: v.literal('/health') }),
});

export type ServiceInfoView = v.InferOutput<typeof ServiceInfoView>;
