import sharp from 'sharp';
import { peakRssMb, SERVICE_URL, startService, type BenchContext } from '../harness.js';

/** The most the service may hold while one request uploads ten photos. */
const UPLOAD_PEAK_TARGET_MB = 300;
const ABUSIVE_REQUESTS = 16;
const ABUSIVE_FIELDS = 100;
/** The most the service's peak may grow while the abusive forms arrive. */
const ABUSIVE_PEAK_TARGET_RATIO = 3;
const MEGABYTE = 1024 * 1024;

async function noiseJpeg(seed: number): Promise<Buffer> {
  // Gaussian noise barely compresses, so a photo-sized JPEG comes close to the 10 MB limit.
  const image = await sharp({ create: { width: 3400, height: 2650, channels: 3, background: { r: seed, g: 90, b: 160 }, noise: { type: 'gaussian', mean: 128, sigma: 70 } } })
    .jpeg({ quality: 97 })
    .toBuffer();
  if (image.length > 10 * MEGABYTE) throw new Error(`generated image is over the 10 MB limit (${image.length} bytes)`);
  return image;
}

/** Peak RSS of the service while one request uploads 10 images. */
async function benchUpload(context: BenchContext, agentToken: string, categoryId: string): Promise<boolean> {
  console.log('\n## Memory: peak RSS of the service while one request uploads 10 images\n');
  const images = await Promise.all(Array.from({ length: 10 }, (_, index) => noiseJpeg(index * 20)));
  const service = await startService(context.env);
  try {
    const peak = () => peakRssMb(service.child.pid!);
    await fetch(`${SERVICE_URL}/api/categories`);
    const before = peak();
    const form = new FormData();
    form.set('title', 'Benchmark upload');
    form.set('price', '100');
    form.set('categoryId', categoryId);
    form.set('attributes', JSON.stringify({ brand: 'Bench', model: 'Upload', storage: '128GB' }));
    for (const [index, image] of images.entries()) form.append('images', new Blob([image], { type: 'image/jpeg' }), `photo-${index}.jpg`);
    const started = performance.now();
    const response = await fetch(`${SERVICE_URL}/api/listings`, { method: 'POST', body: form, headers: { authorization: `Bearer ${agentToken}` } });
    const body = await response.text();
    const seconds = (performance.now() - started) / 1000;
    const totalMb = images.reduce((sum, image) => sum + image.length, 0) / MEGABYTE;
    console.log(`upload of ${images.length} images, ${totalMb.toFixed(1)} MB in all: HTTP ${response.status} in ${seconds.toFixed(1)} s`);
    if (response.status !== 201) console.log(body.slice(0, 300));
    const after = peak();
    console.log(`peak RSS before ${before.toFixed(0)} MB, after ${after.toFixed(0)} MB (target < ${UPLOAD_PEAK_TARGET_MB} MB)`);
    return response.status === 201 && after < UPLOAD_PEAK_TARGET_MB;
  } finally {
    await service.stop();
  }
}

/** A multipart body of `fields` text fields of 1 MB each, generated as it is sent (never held whole by the client). */
function abusiveForm(boundary: string, fields: number): ReadableStream<Uint8Array> {
  const value = Buffer.alloc(MEGABYTE, 'x');
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent === fields) {
        controller.enqueue(Buffer.from(`--${boundary}--\r\n`));
        controller.close();
        return;
      }
      controller.enqueue(Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\n`), value, Buffer.from('\r\n')]));
      sent += 1;
    },
  });
}

/** Peak RSS of the service while 16 requests at once each send 100 text fields of 1 MB. */
async function benchAbusiveForms(context: BenchContext, agentToken: string): Promise<boolean> {
  console.log(`\n## Memory: peak RSS while ${ABUSIVE_REQUESTS} requests at once each send ${ABUSIVE_FIELDS} text fields of 1 MB\n`);
  const service = await startService(context.env);
  try {
    const peak = () => peakRssMb(service.child.pid!);
    await fetch(`${SERVICE_URL}/api/categories`);
    const idle = peak();
    const boundary = 'abusive-boundary';
    const answers = await Promise.all(
      Array.from({ length: ABUSIVE_REQUESTS }, () =>
        fetch(`${SERVICE_URL}/api/listings`, {
          method: 'POST',
          headers: { authorization: `Bearer ${agentToken}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: abusiveForm(boundary, ABUSIVE_FIELDS),
          duplex: 'half',
        } as RequestInit).then(
          (response) => response.status,
          () => 'cut',
        ),
      ),
    );
    const counts = new Map<string, number>();
    for (const answer of answers) counts.set(String(answer), (counts.get(String(answer)) ?? 0) + 1);
    console.log(`answers: ${[...counts].map(([answer, count]) => `${count} x ${answer}`).join(', ')}`);
    const after = peak();
    console.log(`peak RSS idle ${idle.toFixed(0)} MB, after ${after.toFixed(0)} MB: ${(after / idle).toFixed(2)}x (target <= ${ABUSIVE_PEAK_TARGET_RATIO}x)`);
    return after / idle <= ABUSIVE_PEAK_TARGET_RATIO;
  } finally {
    await service.stop();
  }
}

/** The service's memory under a ten-photo upload and under abusive forms. */
export async function benchMemory(context: BenchContext): Promise<boolean> {
  const { agentToken, phonesCategoryId } = await context.store();
  const upload = await benchUpload(context, agentToken, phonesCategoryId);
  const abusive = await benchAbusiveForms(context, agentToken);
  return upload && abusive;
}
