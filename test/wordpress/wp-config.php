<?php
// backlot's test WordPress: one throwaway site per test run (test/wordpress.ts copies this into its docroot).
// Everything that changes between runs comes from the environment, so the seeded database can be cached.
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:' . getenv('BACKLOT_WP_DB_SOCKET'));
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
$table_prefix = 'wp_';

// Fixed keys: this site only ever lives for one test run on loopback.
foreach (['AUTH', 'SECURE_AUTH', 'LOGGED_IN', 'NONCE'] as $kind) {
    define("{$kind}_KEY", "backlot-test-{$kind}-key");
    define("{$kind}_SALT", "backlot-test-{$kind}-salt");
}

define('WP_HOME', getenv('BACKLOT_WP_URL'));
define('WP_SITEURL', getenv('BACKLOT_WP_URL'));
// 'local' lets application passwords work over plain http.
define('WP_ENVIRONMENT_TYPE', 'local');
// No cron requests back into the single-threaded PHP server, no update checks, no outside HTTP.
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('WP_DEBUG', false);

if (!defined('ABSPATH')) {
    define('ABSPATH', __DIR__ . '/');
}
require_once ABSPATH . 'wp-settings.php';
