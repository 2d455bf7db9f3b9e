import fsp from 'node:fs/promises';

/** A coloured point cloud: xyz as float32 triples, rgb as byte triples. */
export interface PointCloud {
  xyz: Float32Array;
  rgb: Uint8Array;
}

/** Encodes a binary little-endian PLY (x y z float, red green blue uchar), as MeshLab and CloudCompare read it. */
export function encodePly(cloud: PointCloud): Buffer {
  const n = cloud.xyz.length / 3;
  const header = Buffer.from(
    `ply\nformat binary_little_endian 1.0\ncomment SiteWalk walk-through reconstruction\nelement vertex ${n}\n` +
      'property float x\nproperty float y\nproperty float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n',
    'ascii',
  );
  const body = Buffer.alloc(n * 15);
  for (let i = 0; i < n; i++) {
    const o = i * 15;
    body.writeFloatLE(cloud.xyz[i * 3], o);
    body.writeFloatLE(cloud.xyz[i * 3 + 1], o + 4);
    body.writeFloatLE(cloud.xyz[i * 3 + 2], o + 8);
    body[o + 12] = cloud.rgb[i * 3];
    body[o + 13] = cloud.rgb[i * 3 + 1];
    body[o + 14] = cloud.rgb[i * 3 + 2];
  }
  return Buffer.concat([header, body]);
}

/** Decodes what `encodePly` writes (and any binary little-endian PLY with exactly those vertex properties). */
export function decodePly(buf: Buffer): PointCloud {
  const end = buf.indexOf('end_header\n');
  if (end < 0 || !buf.subarray(0, 4).equals(Buffer.from('ply\n'))) throw new Error('Not a PLY file');
  const header = buf.toString('ascii', 0, end);
  if (!/format binary_little_endian 1\.0/.test(header)) throw new Error('Not a binary little-endian PLY');
  const m = /element vertex (\d+)/.exec(header);
  if (!m) throw new Error('PLY without vertices');
  const props = [...header.matchAll(/property (\w+) (\w+)/g)].map((p) => `${p[1]} ${p[2]}`).join(',');
  if (props !== 'float x,float y,float z,uchar red,uchar green,uchar blue') throw new Error(`Unexpected PLY properties: ${props}`);
  const n = Number(m[1]);
  const start = end + 'end_header\n'.length;
  if (buf.length !== start + n * 15) throw new Error(`PLY body has ${buf.length - start} bytes, ${n * 15} expected`);
  const xyz = new Float32Array(n * 3);
  const rgb = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const o = start + i * 15;
    xyz[i * 3] = buf.readFloatLE(o);
    xyz[i * 3 + 1] = buf.readFloatLE(o + 4);
    xyz[i * 3 + 2] = buf.readFloatLE(o + 8);
    rgb.set(buf.subarray(o + 12, o + 15), i * 3);
  }
  return { xyz, rgb };
}

export async function writePly(file: string, cloud: PointCloud): Promise<void> {
  await fsp.writeFile(file, encodePly(cloud));
}
