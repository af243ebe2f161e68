import { describe, expect, it } from 'vitest';
import { DatabaseConfigError, databaseFromEnv, masked } from '../src/index';

const refusal = (env: Record<string, string>) => {
  try {
    databaseFromEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(DatabaseConfigError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('databaseFromEnv', () => {
  it('is SQLite in DATA_DIR when no database URL is set (blank counts as unset)', () => {
    expect(databaseFromEnv({})).toEqual({ dialect: 'sqlite', logLine: 'database: SQLite files in DATA_DIR' });
    expect(databaseFromEnv({ DATABASE_URL: ' ', EBEAN_DATASOURCE_URL: '' }).dialect).toBe('sqlite');
  });

  it('takes DATABASE_URL as it is, logging it with the password masked', () => {
    const url = 'postgres://mds:s3cr%40t@db.internal:5432/mds?sslmode=require';
    expect(databaseFromEnv({ DATABASE_URL: url })).toEqual({
      dialect: 'postgres',
      url,
      poolSize: 10,
      logLine: 'database: PostgreSQL postgres://mds:****@db.internal:5432/mds?sslmode=require (from DATABASE_URL, pool of 10)',
    });
    expect(databaseFromEnv({ DATABASE_URL: 'postgresql://db/mds' })).toMatchObject({ url: 'postgresql://db/mds' });
  });

  it("takes DataHub's EBEAN_DATASOURCE_URL with its username and password, keeping the JDBC parameters", () => {
    const config = databaseFromEnv({
      EBEAN_DATASOURCE_URL: 'jdbc:postgresql://postgres:5432/datahub?sslmode=require',
      EBEAN_DATASOURCE_USERNAME: 'datahub',
      EBEAN_DATASOURCE_PASSWORD: 'p@ss:w/rd',
    });
    expect(config).toMatchObject({ dialect: 'postgres', url: 'postgres://datahub:p%40ss%3Aw%2Frd@postgres:5432/datahub?sslmode=require' });
    expect(config.logLine).toBe(
      'database: PostgreSQL postgres://datahub:****@postgres:5432/datahub?sslmode=require (from EBEAN_DATASOURCE_URL, pool of 10)',
    );
    expect(new URL((config as { url: string }).url).password).toBe(encodeURIComponent('p@ss:w/rd'));
    expect(databaseFromEnv({ EBEAN_DATASOURCE_URL: 'jdbc:postgresql://localhost/datahub' })).toMatchObject({
      url: 'postgres://localhost/datahub',
    });
  });

  it('prefers DATABASE_URL when both are set', () => {
    expect(databaseFromEnv({ DATABASE_URL: 'postgres://a/one', EBEAN_DATASOURCE_URL: 'jdbc:mysql://mysql:3306/datahub' })).toMatchObject({
      url: 'postgres://a/one',
    });
  });

  it('sizes the pool from DATABASE_POOL_SIZE, else EBEAN_MAX_CONNECTIONS', () => {
    expect(databaseFromEnv({ DATABASE_URL: 'postgres://db/mds', DATABASE_POOL_SIZE: '25', EBEAN_MAX_CONNECTIONS: '50' })).toMatchObject({
      poolSize: 25,
    });
    expect(databaseFromEnv({ DATABASE_URL: 'postgres://db/mds', EBEAN_MAX_CONNECTIONS: '50' })).toMatchObject({ poolSize: 50 });
  });

  it('refuses what it cannot use, naming the variable and never echoing a password', () => {
    expect(refusal({ DATABASE_URL: 'mysql://root:hunter2@db/mds' })).toBe(
      'DATABASE_URL must be a postgres:// URL (postgres://user:password@host:port/database), not mysql://…',
    );
    expect(refusal({ DATABASE_URL: 'db.internal:5432' })).toMatch(/^DATABASE_URL must be a postgres:\/\/ URL/);
    expect(refusal({ DATABASE_URL: 'not a url' })).toBe('DATABASE_URL must be a URL: postgres://user:password@host:port/database');
    expect(refusal({ EBEAN_DATASOURCE_URL: 'jdbc:mysql://mysql:3306/datahub' })).toBe(
      'EBEAN_DATASOURCE_URL: mysql is not supported: mds stores on PostgreSQL, or on SQLite when this is unset',
    );
    expect(refusal({ EBEAN_DATASOURCE_URL: 'jdbc:postgresql://a:5432,b:5432/datahub' })).toMatch(
      /^EBEAN_DATASOURCE_URL: several hosts are not supported/,
    );
    expect(refusal({ DATABASE_URL: 'postgres://db/mds', DATABASE_POOL_SIZE: '0' })).toBe(
      'DATABASE_POOL_SIZE must be an integer from 1 to 1000, not 0',
    );
    expect(refusal({ DATABASE_URL: 'postgres://db/mds', EBEAN_MAX_CONNECTIONS: 'many' })).toBe(
      'EBEAN_MAX_CONNECTIONS must be an integer from 1 to 1000, not many',
    );
  });
});

describe('masked', () => {
  it('hides the password wherever the URL carries it, and leaves a URL without one alone', () => {
    expect(masked('postgres://u:pw@h/db?password=pw&sslmode=require')).toBe('postgres://u:****@h/db?password=****&sslmode=require');
    expect(masked('postgres://u@h:5433/db')).toBe('postgres://u@h:5433/db');
  });
});
