/** Serverless hosting has no embedded database: without `DATABASE_URL` no statement can run. */
export class DatabaseUrlMissing extends Error {
  constructor() {
    super('DATABASE_URL is not set: serverless hosting has no embedded database');
    this.name = 'DatabaseUrlMissing';
  }
}
