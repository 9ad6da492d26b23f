import { readFileSync } from 'node:fs';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import pg from 'pg';

/**
 * The peer for the profile service's reads: Apollo Server 5 with the same schema (less uploads) and the same SQL
 * against the same PostgreSQL over TLS — what most people would build by hand.
 */
const schema = readFileSync(new URL('../../src/services/profiles/schema.graphql', import.meta.url), 'utf8');
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL!.replace(/[?&]sslmode=[^&]*/, ''),
  ssl: { rejectUnauthorized: false },
  max: 10,
});

const server = new ApolloServer({
  // A benchmark peer on loopback: no browser, so no CSRF preflight needed for the readiness GET.
  csrfPrevention: false,
  typeDefs: schema,
  resolvers: {
    Query: {
      users: async () => {
        const { rows } = await pool.query(
          'SELECT id, full_name, email, img_uri, date_created FROM profiles.users ORDER BY created_at, seq',
        );
        return rows.map((r) => ({
          id: r.id,
          fullName: r.full_name,
          email: r.email,
          img_uri: r.img_uri,
          DateCreated: r.date_created,
        }));
      },
    },
  },
});
await startStandaloneServer(server, { listen: { port: Number(process.env.PORT), host: '127.0.0.1' } });
