import type { Migration } from '../../../../platform/database.js';

/**
 * Projects and the resources assigned to them, by URN (a resource is in one project). The account starts with its
 * default project holding what exists; triggers keep the relation as the provider does: a droplet or volume made
 * lands in the default project, and one deleted (by any route) leaves its project.
 */
export const projectsMigration: Migration = {
  name: '502_projects',
  sql: `
    CREATE TABLE machines.projects (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      purpose text NOT NULL,
      environment text,
      is_default boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE UNIQUE INDEX projects_name ON machines.projects (lower(name));
    CREATE UNIQUE INDEX projects_one_default ON machines.projects (is_default) WHERE is_default;
    CREATE TABLE machines.project_resources (
      urn text PRIMARY KEY,
      project_id uuid NOT NULL REFERENCES machines.projects (id),
      assigned_at timestamptz NOT NULL
    );
    CREATE INDEX project_resources_project ON machines.project_resources (project_id, assigned_at);
    INSERT INTO machines.projects (id, name, purpose, environment, is_default, created_at, updated_at)
      VALUES (gen_random_uuid(), 'first-project', 'Just trying out DigitalOcean', 'Development', true, now(), now());
    INSERT INTO machines.project_resources (urn, project_id, assigned_at)
      SELECT r.urn, p.id, now() FROM machines.projects p,
        (SELECT 'do:droplet:' || id AS urn FROM machines.machines
         UNION ALL SELECT 'do:volume:' || id FROM machines.volumes) r;

    -- TG_ARGV: the URN prefix and the row's key column.
    CREATE FUNCTION machines.project_resource_made() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO machines.project_resources (urn, project_id, assigned_at)
        SELECT TG_ARGV[0] || (to_jsonb(NEW) ->> TG_ARGV[1]), p.id, now()
        FROM machines.projects p WHERE p.is_default
        ON CONFLICT (urn) DO NOTHING;
      RETURN NULL;
    END $$;
    CREATE FUNCTION machines.project_resource_gone() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM machines.project_resources WHERE urn = TG_ARGV[0] || (to_jsonb(OLD) ->> TG_ARGV[1]);
      RETURN NULL;
    END $$;
    CREATE TRIGGER machines_in_project AFTER INSERT ON machines.machines
      FOR EACH ROW EXECUTE FUNCTION machines.project_resource_made('do:droplet:', 'id');
    CREATE TRIGGER machines_out_of_project AFTER DELETE ON machines.machines
      FOR EACH ROW EXECUTE FUNCTION machines.project_resource_gone('do:droplet:', 'id');
    CREATE TRIGGER volumes_in_project AFTER INSERT ON machines.volumes
      FOR EACH ROW EXECUTE FUNCTION machines.project_resource_made('do:volume:', 'id');
    CREATE TRIGGER volumes_out_of_project AFTER DELETE ON machines.volumes
      FOR EACH ROW EXECUTE FUNCTION machines.project_resource_gone('do:volume:', 'id');
  `,
};

/** Domains and load balancers join projects as the provider's `do:domain:<name>` and `do:loadbalancer:<id>`. */
export const projectDomainsMigration: Migration = {
  name: '506_project_domains_load_balancers',
  sql: `
    INSERT INTO machines.project_resources (urn, project_id, assigned_at)
      SELECT r.urn, p.id, now() FROM machines.projects p,
        (SELECT 'do:domain:' || name AS urn FROM machines.domains
         UNION ALL SELECT 'do:loadbalancer:' || id FROM machines.load_balancers) r
      WHERE p.is_default
      ON CONFLICT (urn) DO NOTHING;
    CREATE TRIGGER domains_in_project AFTER INSERT ON machines.domains
      FOR EACH ROW EXECUTE FUNCTION machines.project_resource_made('do:domain:', 'name');
    CREATE TRIGGER domains_out_of_project AFTER DELETE ON machines.domains
      FOR EACH ROW EXECUTE FUNCTION machines.project_resource_gone('do:domain:', 'name');
    CREATE TRIGGER load_balancers_in_project AFTER INSERT ON machines.load_balancers
      FOR EACH ROW EXECUTE FUNCTION machines.project_resource_made('do:loadbalancer:', 'id');
    CREATE TRIGGER load_balancers_out_of_project AFTER DELETE ON machines.load_balancers
      FOR EACH ROW EXECUTE FUNCTION machines.project_resource_gone('do:loadbalancer:', 'id');
  `,
};
