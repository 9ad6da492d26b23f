import type { Database } from '../../platform/database.js';
import { hashPassword, verifyPassword } from '../../platform/secrets.js';
import { sampleEmployees } from './seed.js';
import type { ConfiguredAccount, Role } from './settings.js';

export interface Employee {
  id: number;
  name: string;
  age: number;
  image: string | null;
}

export interface EmployeeFields {
  name: string;
  age: number;
  image: string | null;
}

export interface Account {
  name: string;
  passwordHash: string;
  role: Role;
}

const columns = 'id, name, age, image';
const uniqueViolation = '23505';
const sequenceExhausted = '2200H';

/** Serialises account changes of processes starting at once on one database. */
const accountsLock = `SELECT pg_advisory_xact_lock(hashtext('backlot:employees:accounts'))`;

export class EmployeeStore {
  constructor(private readonly db: Database) {}

  /** Up to `limit` records after `afterId`, in id order (keyset batches of the streamed full list). */
  async employeesAfter(afterId: number, limit: number): Promise<Employee[]> {
    const { rows } = await this.db.query<Employee>(
      `SELECT ${columns} FROM employees.employees WHERE id > $1 ORDER BY id LIMIT $2`,
      [afterId, limit],
    );
    return rows;
  }

  async findEmployee(id: number): Promise<Employee | undefined> {
    const { rows } = await this.db.query<Employee>(
      `SELECT ${columns} FROM employees.employees WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  /** A new record with the next id; undefined when the id sequence is used up (a client chose the highest id). */
  async createEmployee(fields: EmployeeFields): Promise<Employee | undefined> {
    // A generated id can collide with one a client chose meanwhile (see createEmployeeWithId): take the next one.
    for (let attempt = 0; ; attempt++) {
      try {
        const { rows } = await this.db.query<Employee>(
          `INSERT INTO employees.employees (name, age, image) VALUES ($1, $2, $3) RETURNING ${columns}`,
          [fields.name, fields.age, fields.image],
        );
        return rows[0];
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === sequenceExhausted) return undefined;
        if (code !== uniqueViolation || attempt >= 20) throw error;
      }
    }
  }

  /** A new record with the id the client chose; undefined when that id is taken. */
  async createEmployeeWithId(id: number, fields: EmployeeFields): Promise<Employee | undefined> {
    const { rows } = await this.db.query<Employee>(
      `INSERT INTO employees.employees (id, name, age, image) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO NOTHING RETURNING ${columns}`,
      [id, fields.name, fields.age, fields.image],
    );
    if (rows[0]) {
      // Move the id sequence past the chosen id so later generated ids do not run into it.
      await this.db.query(
        `SELECT setval(s, GREATEST(COALESCE(pg_sequence_last_value(s), 0), $1::bigint))
         FROM (SELECT pg_get_serial_sequence('employees.employees', 'id')::regclass AS s) AS seq`,
        [id],
      );
    }
    return rows[0];
  }

  async replaceEmployee(id: number, fields: EmployeeFields): Promise<Employee | undefined> {
    const { rows } = await this.db.query<Employee>(
      `UPDATE employees.employees SET name = $2, age = $3, image = $4 WHERE id = $1 RETURNING ${columns}`,
      [id, fields.name, fields.age, fields.image],
    );
    return rows[0];
  }

  async deleteEmployee(id: number): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM employees.employees WHERE id = $1', [id]);
    return rowCount > 0;
  }

  /** Inserts the sample employees the first time ever; true when it did. */
  async seedOnce(): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // The event row is the record that seeding happened; a concurrent start waits on it and then skips.
      const { rows } = await tx.query(
        `INSERT INTO employees.events (name) VALUES ('sample_seed') ON CONFLICT (name) DO NOTHING RETURNING name`,
      );
      if (rows.length === 0) return false;
      await tx.query(
        `INSERT INTO employees.employees (name, age)
         SELECT name, age FROM unnest($1::text[], $2::integer[]) WITH ORDINALITY AS s(name, age, n) ORDER BY n`,
        [sampleEmployees.map((e) => e.name), sampleEmployees.map((e) => e.age)],
      );
      return true;
    });
  }

  async findAccount(name: string): Promise<Account | undefined> {
    const { rows } = await this.db.query<Account>(
      'SELECT name, password_hash AS "passwordHash", role FROM employees.accounts WHERE name = $1',
      [name],
    );
    return rows[0];
  }

  /**
   * Makes the stored accounts exactly the configured ones. A password that still matches its stored hash
   * keeps that hash, so restarts do not re-hash every password.
   */
  /**
   * The generated editor `admin` when no accounts are configured, one per database: the first process to start
   * makes it with `passwordHash` (replacing any accounts configured before), every later one keeps the one
   * there. Returns the stored hash and whether this call made it.
   */
  async ensureGeneratedAdmin(passwordHash: string): Promise<{ created: boolean; passwordHash: string }> {
    return this.db.transaction(async (tx) => {
      await tx.query(accountsLock);
      const { rows } = await tx.query<{ passwordHash: string; generated: boolean }>(
        'SELECT password_hash AS "passwordHash", generated FROM employees.accounts',
      );
      if (rows.length === 1 && rows[0].generated)
        return { created: false, passwordHash: rows[0].passwordHash };
      await tx.query('DELETE FROM employees.accounts');
      await tx.query(
        `INSERT INTO employees.accounts (name, password_hash, role, generated) VALUES ('admin', $1, 'editor', true)`,
        [passwordHash],
      );
      return { created: true, passwordHash };
    });
  }

  async replaceAccounts(wanted: ConfiguredAccount[]): Promise<void> {
    const { rows } = await this.db.query<Account>(
      'SELECT name, password_hash AS "passwordHash", role FROM employees.accounts',
    );
    const stored = new Map(rows.map((r) => [r.name, r]));
    const hashed = await Promise.all(
      wanted.map(async (account) => {
        const current = stored.get(account.name);
        const keep = current && (await verifyPassword(current.passwordHash, account.password));
        const passwordHash = keep ? current.passwordHash : await hashPassword(account.password);
        return { name: account.name, passwordHash, role: account.role };
      }),
    );
    await this.db.transaction(async (tx) => {
      await tx.query(accountsLock);
      await tx.query('DELETE FROM employees.accounts WHERE NOT (name = ANY($1::text[]))', [
        hashed.map((a) => a.name),
      ]);
      for (const account of hashed) {
        await tx.query(
          `INSERT INTO employees.accounts (name, password_hash, role) VALUES ($1, $2, $3)
           ON CONFLICT (name) DO UPDATE SET password_hash = EXCLUDED.password_hash, role = EXCLUDED.role,
             generated = false`,
          [account.name, account.passwordHash, account.role],
        );
      }
    });
  }
}
