import createClient from 'openapi-fetch';
import type { paths } from '../../types/api.js';

/** A client whose paths, parameters and answers are typed from the API's OpenAPI document. */
export function shopClient(baseUrl: string) {
  return createClient<paths>({ baseUrl });
}

/** The newest available phones, as "title: price" lines; an error answer is thrown with its stable code. */
export async function newestPhones(api: ReturnType<typeof shopClient>, limit: number): Promise<string[]> {
  const { data, error } = await api.GET('/api/public/listings', { params: { query: { category: 'phones', sort: 'newest', limit } } });
  if (error) throw new Error(`${error.code}: ${error.error}`);
  return data.data.map((listing) => `${listing.title}: ${listing.price}`);
}
