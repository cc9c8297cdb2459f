import type { PGlite } from '@electric-sql/pglite';
import { type DatabaseConnection, type Driver, PGliteDialect, type TransactionSettings } from 'kysely';

/**
 * Kysely's PGlite dialect hands the same single connection to every caller at once. That is fine for one
 * query at a time but lets two concurrent transactions interleave their statements. This dialect queues
 * callers instead: a connection is held by one query or one whole transaction until it is released, which
 * gives the embedded database the same isolation the rest of the code expects from PostgreSQL.
 */
export class SerializedPGliteDialect extends PGliteDialect {
  constructor(pglite: PGlite) {
    super({ pglite });
  }

  override createDriver(): Driver {
    return new SerializedDriver(super.createDriver());
  }
}

class SerializedDriver implements Driver {
  readonly #inner: Driver;
  #tail: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;

  constructor(inner: Driver) {
    this.#inner = inner;
  }

  init(): Promise<void> {
    return this.#inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.#release = release;
    return this.#inner.acquireConnection();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await this.#inner.releaseConnection(connection);
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(connection);
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}
