import { beforeAll } from 'vitest';
import { buildCategory } from './catalog-factories.js';
import { buildAdmin, buildAgent, type TestUser } from './factories.js';
import type { TestServerHandle } from './test-server.js';

/** The usual accounts and catalogue of a test file. */
export interface Shop {
  admin: TestUser;
  agent: TestUser;
  /** A second agent, for what one agent may not see or change of another's. */
  otherAgent: TestUser;
  category: Awaited<ReturnType<typeof buildCategory>>;
}

/**
 * An administrator, two agents and a category, built once before the file's tests on its server's
 * database: read them inside tests (`shop.admin.token`), once they exist.
 */
export function useShop(server: TestServerHandle): Shop {
  const shop = {} as Shop;
  beforeAll(async () => {
    shop.admin = await buildAdmin(server.db);
    shop.agent = await buildAgent(server.db);
    shop.otherAgent = await buildAgent(server.db);
    shop.category = await buildCategory(server.db);
  });
  return shop;
}
