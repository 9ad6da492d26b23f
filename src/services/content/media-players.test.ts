import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, type ContentTest, json, startContent } from '../../../test/content.js';

// Audio, video and other files: the markup core's prepend_attachment puts in description.rendered, and the
// excerpt core makes of it for an empty caption (both measured on WordPress 6.1).

let t: ContentTest;
before(async () => {
  t = await startContent();
});
after(() => t.close());

const upload = async (name: string, type: string, query = '') =>
  json(
    await t.app.inject({
      method: 'POST',
      url: `${api}/media${query}`,
      payload: Buffer.from('ID3 not really a song'),
      headers: {
        authorization: t.auth.author,
        'content-type': type,
        'content-disposition': `attachment; filename="${name}"`,
      },
    }),
  );

const shim = (kind: string) =>
  `<!--[if lt IE 9]><script>document.createElement('${kind}');</script><![endif]-->\n`;
const audio = (id: number, url: string, n: number) =>
  `<audio class="wp-audio-shortcode" id="audio-${id}-${n}" preload="none" style="width: 100%;" controls="controls"><source type="audio/mpeg" src="${url}?_=${n}" /><a href="${url}">${url}</a></audio>`;

describe('media players and captions', () => {
  test('an MP3 is described by an audio player; its empty caption is the player’s text', async () => {
    const song = await upload('song.mp3', 'audio/mpeg');
    const url = song.source_url;
    assert.equal(song.description.rendered, `${shim('audio')}${audio(song.id, url, 1)}\n`);
    assert.equal(song.caption.rendered, `<p>${url}</p>\n`);
    // The players of one answer are numbered on: the caption's excerpt made the second, so this is the third.
    const other = await upload('other.mp3', 'audio/mpeg', '?caption=Set&description=Liner%20notes');
    const list = json(
      await t.app.inject({
        method: 'GET',
        url: `${api}/media?include=${song.id},${other.id}&orderby=id&order=asc`,
      }),
    );
    assert.deepEqual(
      list.map((m: { description: { rendered: string } }) => m.description.rendered),
      [
        `${shim('audio')}${audio(song.id, url, 1)}\n`,
        `${audio(other.id, other.source_url, 3)}\n<p>Liner notes</p>\n`,
      ],
    );
    assert.equal(list[1].caption.rendered, '<p>Set</p>\n');
  });

  test('an update answers with the players numbered after those core’s first, discarded answer made', async () => {
    const song = await upload('update.mp3', 'audio/mpeg');
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/media/${song.id}`,
      payload: { meta: { color: 'blue' } },
      headers: { authorization: t.auth.author },
    });
    assert.equal(res.statusCode, 200);
    // The posts controller's answer used players 1 and 2 (description, caption): no shim, number 3.
    assert.equal(json(res).description.rendered, `${audio(song.id, song.source_url, 3)}\n`);
  });

  test('an MP4 gets a 640×360 video player; a QuickTime file (not playable by core) a plain link', async () => {
    const clip = await upload('clip.mp4', 'video/mp4');
    const url = clip.source_url;
    assert.equal(
      clip.description.rendered,
      `<div style="width: 640px;" class="wp-video">${shim('video')}<video class="wp-video-shortcode" id="video-${clip.id}-1" width="640" height="360" preload="metadata" controls="controls"><source type="video/mp4" src="${url}?_=1" /><a href="${url}">${url}</a></video></div>\n`,
    );
    const mov = await upload('clip.mov', 'video/quicktime');
    assert.equal(
      mov.description.rendered,
      `<a class="wp-embedded-video" href="${mov.source_url}">${mov.source_url}</a>\n`,
    );
  });

  test('a file’s empty caption is core’s excerpt: the text of its link, then of its description', async () => {
    const note = await upload('notes.txt', 'text/plain', '?title=Read%20me');
    assert.equal(note.caption.raw, '');
    assert.equal(note.caption.rendered, '<p>Read me</p>\n');
    const described = await upload(
      'words.txt',
      'text/plain',
      '?title=Words&description=Some%20words%20--%20here',
    );
    assert.equal(described.caption.rendered, '<p>Words Some words &#8212; here</p>\n');
  });
});
