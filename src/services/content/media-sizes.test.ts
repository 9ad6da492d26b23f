import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { api, type ContentTest, fetchStored, type Json, json, startContent } from '../../../test/content.js';
import { bmp, exifPhoto, gradient, withIptc } from '../../../test/images.js';
import { multipart, png, storeEnv } from '../../../test/profiles.js';

// What WordPress 6.1 with GD makes of the same uploads (measured on the Debian package, see the differential
// test): the registered sizes smaller than the original, named name-WxH.ext, beside it in the same store.

let t: ContentTest;
before(async () => {
  t = await startContent({ env: storeEnv() });
});
after(() => t.close());

const upload = (body: Buffer, type: string, name: string, query = '') =>
  t.app.inject({
    method: 'POST',
    url: `${api}/media${query}`,
    payload: body,
    headers: {
      authorization: t.auth.author,
      'content-type': type,
      'content-disposition': `attachment; filename="${name}"`,
    },
  });

/** Each size's file is stored, served with its type, and really is that many pixels in that format. */
async function assertStoredSizes(sizes: Record<string, Json>, format: string) {
  for (const [name, size] of Object.entries(sizes)) {
    const served = await fetchStored(t, size.source_url);
    assert.equal(served.status, 200, name);
    assert.equal(served.type, size.mime_type, name);
    const pixels = await sharp(served.body).metadata();
    assert.deepEqual([pixels.format, pixels.width, pixels.height], [format, size.width, size.height], name);
    if (name !== 'full') assert.equal(size.filesize, served.body.length, name);
  }
}

const zeroMeta = {
  aperture: '0',
  credit: '',
  camera: '',
  caption: '',
  created_timestamp: '0',
  copyright: '',
  focal_length: '0',
  iso: '0',
  shutter_speed: '0',
  title: '',
  orientation: '0',
  keywords: [],
};

describe('media sizes', () => {
  test('a 1200×800 JPEG gets core’s sizes, image_meta and the attachment paragraph', async () => {
    const photo = await gradient(1200, 800).jpeg().toBuffer();
    const res = await upload(photo, 'image/jpeg', 'photo.jpg');
    assert.equal(res.statusCode, 201);
    const media = json(res);
    const dir = media.source_url.slice(0, media.source_url.lastIndexOf('/') + 1);
    assert.match(dir, /\/uploads\/\d{4}\/\d{2}\/$/);
    const { sizes, ...details } = media.media_details;
    assert.deepEqual(details, {
      width: 1200,
      height: 800,
      file: media.media_details.file,
      filesize: photo.length,
      image_meta: zeroMeta,
    });
    const shape = (name: string, w: number, h: number) => ({
      file: `photo-${w}x${h}.jpg`,
      width: w,
      height: h,
      filesize: sizes[name].filesize,
      mime_type: 'image/jpeg',
      source_url: `${dir}photo-${w}x${h}.jpg`,
    });
    assert.deepEqual(sizes, {
      medium: shape('medium', 300, 200),
      large: shape('large', 1024, 683),
      thumbnail: shape('thumbnail', 150, 150),
      medium_large: shape('medium_large', 768, 512),
      full: {
        file: 'photo.jpg',
        width: 1200,
        height: 800,
        mime_type: 'image/jpeg',
        source_url: media.source_url,
      },
    });
    assert.deepEqual(Object.keys(sizes), ['medium', 'large', 'thumbnail', 'medium_large', 'full']);
    await assertStoredSizes(sizes, 'jpeg');
    assert.equal(
      media.description.rendered,
      `<p class="attachment"><a href='${media.source_url}'><img width="300" height="200" src="${dir}photo-300x200.jpg" class="attachment-medium size-medium" alt="" decoding="async" loading="lazy" srcset="${dir}photo-300x200.jpg 300w, ${dir}photo-1024x683.jpg 1024w, ${dir}photo-768x512.jpg 768w, ${media.source_url} 1200w" sizes="(max-width: 300px) 100vw, 300px" /></a></p>\n`,
    );
    // A later read answers the same sizes; the thumbnail is the centre of the picture, cropped square.
    const read = json(await t.app.inject({ method: 'GET', url: `${api}/media/${media.id}` }));
    assert.deepEqual(read.media_details, media.media_details);
    assert.equal(read.description.rendered, media.description.rendered);
  });

  test('a multipart PNG gets the sizes it is larger than; a 1×1 PNG none, and no `full`', async () => {
    const form = multipart([
      { name: 'title', value: 'Diagram' },
      {
        name: 'file',
        value: await gradient(400, 300).png().toBuffer(),
        filename: 'diagram.png',
        contentType: 'image/png',
      },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `${api}/media`,
      payload: form.body,
      headers: { authorization: t.auth.editor, 'content-type': form.contentType },
    });
    assert.equal(res.statusCode, 201);
    const sizes = json(res).media_details.sizes;
    assert.deepEqual(
      Object.entries(sizes).map(([name, s]: [string, Json]) => [name, s.file, s.mime_type]),
      [
        ['medium', 'diagram-300x225.png', 'image/png'],
        ['thumbnail', 'diagram-150x150.png', 'image/png'],
        ['full', 'diagram.png', 'image/png'],
      ],
    );
    await assertStoredSizes(sizes, 'png');
    const dot = json(await upload(png, 'image/png', 'dot.png'));
    assert.deepEqual(dot.media_details.sizes, {});
    assert.deepEqual(dot.media_details.image_meta, zeroMeta);
    assert.equal(
      dot.description.rendered,
      `<p class="attachment"><a href='${dot.source_url}'><img width="1" height="1" src="${dot.source_url}" class="attachment-medium size-medium" alt="" decoding="async" loading="lazy" /></a></p>\n`,
    );
  });

  test('a BMP gets no copies (GD cannot resize it): missing_image_sizes names those it could have', async () => {
    const media = json(await upload(bmp(400, 300), 'image/bmp', 'pic.bmp'));
    assert.deepEqual(media.media_details.sizes, {});
    assert.deepEqual(media.missing_image_sizes, ['thumbnail', 'medium']);
    assert.equal(
      media.description.rendered,
      `<p class="attachment"><a href='${media.source_url}'><img width="300" height="225" src="${media.source_url}" class="attachment-medium size-medium" alt="" decoding="async" loading="lazy" /></a></p>\n`,
    );
  });

  test('EXIF of a JPEG becomes image_meta as wp_read_image_metadata reads it', async () => {
    const media = json(await upload(await exifPhoto(), 'image/jpeg', 'exif.jpg'));
    // Sent without a title or caption, the upload takes the picture's own, as core's media controller does.
    assert.deepEqual(
      [media.title.raw, media.caption.raw, media.slug],
      ['A test picture', 'A test picture', 'a-test-picture'],
    );
    assert.deepEqual(media.media_details.image_meta, {
      aperture: '2.8',
      credit: 'Ann Example',
      camera: 'Camera X100',
      caption: 'A test picture',
      created_timestamp: '1704164645',
      copyright: '(c) 2024 Ann &amp; Co',
      focal_length: '50',
      iso: '200',
      shutter_speed: '0.004',
      title: 'A test picture',
      orientation: '1',
      keywords: [],
    });
  });

  test('IPTC of a JPEG (title, caption, credit, copyright, keywords, date) becomes image_meta too', async () => {
    const jpeg = withIptc(await gradient(320, 240).jpeg().toBuffer(), [
      [105, 'Sunset'],
      [120, 'Over the sea & sand'],
      [80, 'Bo Example'],
      [116, '(c) Bo'],
      [25, 'sea'],
      [25, 'sun'],
      [55, '20240102'],
      [60, '030405+0200'],
    ]);
    const media = json(await upload(jpeg, 'image/jpeg', 'iptc.jpg'));
    assert.deepEqual(media.media_details.image_meta, {
      ...zeroMeta,
      credit: 'Bo Example',
      caption: 'Over the sea &amp; sand',
      created_timestamp: '1704157445',
      copyright: '(c) Bo',
      title: 'Sunset',
      keywords: ['sea', 'sun'],
    });
    assert.deepEqual([media.title.raw, media.caption.raw], ['Sunset', 'Over the sea &amp; sand']);
  });

  test('a JPEG over 2560 px is scaled to name-scaled.jpg; its sizes come from the original', async () => {
    const huge = await gradient(3000, 2000).jpeg().toBuffer();
    const media = json(await upload(huge, 'image/jpeg', 'huge.jpg'));
    const details = media.media_details;
    assert.deepEqual([details.width, details.height, details.original_image], [2560, 1707, 'huge.jpg']);
    assert.match(details.file, /\/huge-scaled\.jpg$/);
    assert.match(media.source_url, /\/huge-scaled\.jpg$/);
    assert.deepEqual(
      Object.values(details.sizes).map((s: Json) => s.file),
      [
        'huge-300x200.jpg',
        'huge-1024x683.jpg',
        'huge-150x150.jpg',
        'huge-768x512.jpg',
        'huge-1536x1024.jpg',
        'huge-2048x1365.jpg',
        'huge-scaled.jpg',
      ],
    );
    await assertStoredSizes(details.sizes, 'jpeg');
    const original = await fetchStored(t, media.source_url.replace('huge-scaled.jpg', 'huge.jpg'));
    assert.deepEqual(original.body, huge);
  });

  test('a JPEG with EXIF orientation 6 is turned upright into name-rotated.jpg, and so are its sizes', async () => {
    const sideways = await gradient(640, 480).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const media = json(await upload(sideways, 'image/jpeg', 'turned.jpg'));
    const details = media.media_details;
    assert.deepEqual(
      [details.width, details.height, details.original_image, details.image_meta.orientation],
      [480, 640, 'turned.jpg', 1],
    );
    assert.match(media.source_url, /\/turned-rotated\.jpg$/);
    assert.deepEqual(
      Object.values(details.sizes).map((s: Json) => [s.file, s.width, s.height]),
      [
        ['turned-225x300.jpg', 225, 300],
        ['turned-150x150.jpg', 150, 150],
        ['turned-rotated.jpg', 480, 640],
      ],
    );
    await assertStoredSizes(details.sizes, 'jpeg');
    const original = await fetchStored(t, media.source_url.replace('turned-rotated.jpg', 'turned.jpg'));
    assert.deepEqual(original.body, sideways);
  });

  test('a name that one of the copies would take is not given out (wp_unique_filename)', async () => {
    const small = await gradient(200, 200).jpeg().toBuffer();
    const copyLike = json(await upload(small, 'image/jpeg', 'shot-150x150.jpg'));
    assert.match(copyLike.media_details.file, /\/shot-150x150\.jpg$/);
    // shot.jpg's thumbnail would be shot-150x150.jpg, so it becomes shot-1.jpg.
    const shot = json(await upload(small, 'image/jpeg', 'shot.jpg'));
    assert.match(shot.media_details.file, /\/shot-1\.jpg$/);
    assert.equal(shot.media_details.sizes.thumbnail.file, 'shot-1-150x150.jpg');
    // An upper-case extension is stored in lower case, as core does.
    const upper = json(await upload(small, 'image/jpeg', 'Upper.JPG'));
    assert.match(upper.media_details.file, /\/Upper\.jpg$/);
    assert.equal(upper.media_details.sizes.thumbnail.file, 'Upper-150x150.jpg');
    // And a name already used by a copy is not taken either.
    const again = json(await upload(small, 'image/jpeg', 'shot-1-150x150.jpg'));
    assert.match(again.media_details.file, /\/shot-1-150x150-1\.jpg$/);
  });

  test('a truncated JPEG is resized as far as it decodes; a PNG that does not decode keeps no copies', async () => {
    // As WordPress with GD: the JPEG's header (and size) survives and the rest is filled in; the PNG fails.
    const photo = await gradient(1200, 800).jpeg().toBuffer();
    const truncated = json(await upload(photo.subarray(0, 4000), 'image/jpeg', 'truncated.jpg'));
    assert.deepEqual(Object.keys(truncated.media_details.sizes), [
      'medium',
      'large',
      'thumbnail',
      'medium_large',
      'full',
    ]);
    await assertStoredSizes(truncated.media_details.sizes, 'jpeg');
    const png = await gradient(400, 300).png().toBuffer();
    const garbled = Buffer.concat([png.subarray(0, 200), Buffer.alloc(2000, 7)]);
    const res = await upload(garbled, 'image/png', 'garbled.png');
    assert.equal(res.statusCode, 201);
    const details = json(res).media_details;
    assert.deepEqual([details.width, details.height, details.filesize, details.sizes], [400, 300, 2200, {}]);
    assert.deepEqual((await fetchStored(t, json(res).source_url)).body, garbled);
  });

  test('deleting an attachment (force) deletes its file and every copy', async () => {
    const media = json(await upload(await gradient(800, 600).webp().toBuffer(), 'image/webp', 'gone.webp'));
    const urls = Object.values(media.media_details.sizes).map((s: Json) => s.source_url as string);
    assert.equal(urls.length, 4); // medium, thumbnail, medium_large, full
    for (const url of urls) assert.equal((await fetchStored(t, url)).status, 200, url);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `${api}/media/${media.id}?force=true`,
      headers: { authorization: t.auth.author },
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res).previous.media_details, media.media_details);
    for (const url of urls) assert.equal((await fetchStored(t, url)).status, 404, url);
  });

  test('a file that is not an image: no sizes, and a paragraph linking to it by title', async () => {
    const media = json(
      await upload(
        Buffer.from('hello'),
        'text/plain',
        'notes.txt',
        `?title=${encodeURIComponent('Tom & Jerry')}`,
      ),
    );
    assert.deepEqual(media.media_details, { filesize: 5, sizes: {} });
    assert.equal(
      media.description.rendered,
      `<p class="attachment"><a href='${media.source_url}'>Tom & Jerry</a></p>\n`,
    );
    const described = json(
      await upload(Buffer.from('hello'), 'text/plain', 'untitled.txt', '?title=%20&description=Some%20words'),
    );
    assert.equal(
      described.description.rendered,
      `<p class="attachment"><a href='${described.source_url}'>untitled</a></p>\n<p>Some words</p>\n`,
    );
  });
});
