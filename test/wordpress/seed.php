<?php
// Installs WordPress into an empty database and seeds it like backlot's first start, from the JSON that
// test/wordpress-seed.ts reads out of backlot's own seeded database (users, terms, posts, their ids and dates).
// Usage: php seed.php <docroot> <seed.json>. Prints {login: application password} on its last line.
$seed = json_decode(file_get_contents($argv[2]), true, 512, JSON_THROW_ON_ERROR);
define('WP_INSTALLING', true);
require $argv[1] . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';

function fail(string $message): never
{
    fwrite(STDERR, "seed.php: $message\n");
    exit(1);
}
function check($result, string $what)
{
    if (is_wp_error($result)) fail("$what: " . $result->get_error_message());
    return $result;
}

// No sendmail here, and nobody to tell about the new site.
add_filter('pre_wp_mail', '__return_false');

$admin = $seed['users'][0];
$installed = wp_install($seed['site']['name'], $admin['login'], $admin['email'], true, '', wp_generate_password(24));
// wp_install's sample content (hello world, sample page, privacy page, first comment) is not in backlot's seed.
foreach (get_posts(['post_type' => 'any', 'post_status' => 'any', 'numberposts' => -1]) as $post) {
    wp_delete_post($post->ID, true);
}
$wpdb->query("DELETE FROM {$wpdb->comments}");
$wpdb->query("ALTER TABLE {$wpdb->posts} AUTO_INCREMENT = 1");
$wpdb->query("ALTER TABLE {$wpdb->comments} AUTO_INCREMENT = 1");

update_option('blogdescription', $seed['site']['description']);
update_option('timezone_string', $seed['site']['timezone']);
update_option('gmt_offset', 0);

foreach ($seed['users'] as $user) {
    $fields = [
        'user_login' => $user['login'],
        'user_email' => $user['email'],
        'display_name' => $user['display_name'],
        'first_name' => $user['first_name'],
        'last_name' => $user['last_name'],
        'nickname' => $user['nickname'],
        'description' => $user['description'],
        'user_url' => $user['url'],
        'user_nicename' => $user['slug'],
        'role' => $user['role'],
        'user_registered' => $user['registered'],
    ];
    if ($user['id'] === $installed['user_id']) {
        check(wp_update_user(['ID' => $user['id']] + $fields), "user {$user['login']}");
        // wp_update_user leaves user_registered alone.
        $wpdb->update($wpdb->users, ['user_registered' => $user['registered']], ['ID' => $user['id']]);
    } else {
        $id = check(wp_insert_user($fields + ['user_pass' => wp_generate_password(24)]), "user {$user['login']}");
        if ($id !== $user['id']) fail("user {$user['login']} got id $id, backlot has {$user['id']}");
    }
}

foreach ($seed['terms'] as $term) {
    $args = ['slug' => $term['slug'], 'description' => $term['description'], 'parent' => $term['parent']];
    $existing = get_term_by('slug', $term['slug'], $term['taxonomy']);
    if ($existing) {
        check(wp_update_term($existing->term_id, $term['taxonomy'], ['name' => $term['name']] + $args), $term['slug']);
        $id = $existing->term_id;
    } else {
        $id = check(wp_insert_term($term['name'], $term['taxonomy'], $args), $term['slug'])['term_id'];
    }
    if ($id !== $term['id']) fail("term {$term['slug']} got id $id, backlot has {$term['id']}");
}

$taxonomies = array_column($seed['terms'], 'taxonomy', 'id');
foreach ($seed['posts'] as $post) {
    $id = check(wp_insert_post([
        'import_id' => $post['id'],
        'post_author' => $post['author'],
        'post_title' => $post['title'],
        'post_content' => $post['content'],
        'post_excerpt' => $post['excerpt'],
        'post_name' => $post['slug'],
        'post_status' => $post['status'],
        'comment_status' => $post['comment_status'],
        'ping_status' => $post['ping_status'],
        'post_date' => $post['date'],
        'post_date_gmt' => $post['date'],
        'post_type' => $post['type'],
        'post_parent' => $post['parent'],
        'menu_order' => $post['menu_order'],
        'post_password' => $post['password'],
    ], true), "post {$post['id']}");
    if ($id !== $post['id']) fail("post {$post['id']} got id $id");
    // Page templates are plain strings in backlot; core checks them against the theme, so write the meta.
    if ($post['template'] !== '') update_post_meta($id, '_wp_page_template', $post['template']);
    if ($post['type'] !== 'post') continue;
    foreach (['category', 'post_tag'] as $taxonomy) {
        $ids = array_values(array_filter($post['terms'], fn($t) => $taxonomies[$t] === $taxonomy));
        check(wp_set_object_terms($id, $ids, $taxonomy), "terms of post $id");
    }
    if ($post['format'] !== 'standard') set_post_format($id, $post['format']);
    if ($post['sticky']) stick_post($id);
}

// Comments with backlot's ids, statuses and dates (wp_insert_comment takes them as given).
$statuses = ['approved' => '1', 'hold' => '0', 'spam' => 'spam', 'trash' => 'trash'];
foreach ($seed['comments'] as $comment) {
    $id = wp_insert_comment([
        'comment_post_ID' => $comment['post'],
        'comment_parent' => $comment['parent'],
        'user_id' => $comment['author'],
        'comment_author' => $comment['author_name'],
        'comment_author_email' => $comment['author_email'],
        'comment_author_url' => $comment['author_url'],
        'comment_author_IP' => $comment['author_ip'],
        'comment_content' => $comment['content'],
        'comment_approved' => $statuses[$comment['status']],
        'comment_date' => $comment['date'],
        'comment_date_gmt' => $comment['date'],
    ]);
    if ($id !== $comment['id']) fail("comment {$comment['id']} got id $id");
}

// Pretty permalinks come after the posts, so their guids are `?p=<id>` as when a site's posts are written.
$wp_rewrite->set_permalink_structure('/%postname%/');
flush_rewrite_rules();
// One application password per user, so requests can be sent in each role.
$passwords = [];
foreach ($seed['users'] as $user) {
    [$password] = check(
        WP_Application_Passwords::create_new_application_password($user['id'], ['name' => 'backlot first start']),
        "application password of {$user['login']}",
    );
    $passwords[$user['login']] = $password;
}
echo "\n", json_encode($passwords), "\n";
