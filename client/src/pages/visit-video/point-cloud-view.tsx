import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as THREE from 'three';
import { PLYLoader } from 'three/examples/jsm/loaders/PLYLoader.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { VideoCameraPath } from '@sitewalk/proto';
import { formatNumber } from '../../lib/format';

interface Props {
  plyUrl: string;
  pathUrl: string | null;
  /** Accessible name: which part of the walk this is. */
  label: string;
}

type State = { kind: 'loading'; percent: number } | { kind: 'ready'; points: number } | { kind: 'error'; message: string } | { kind: 'no-webgl' };

/**
 * The 3D preview of one cluster of a walk: its point cloud (binary PLY, three.js
 * PLYLoader, the colours of the video) with the camera path in blue and a dot
 * per future room, turned by mouse, touch or keyboard (OrbitControls). "Up" is
 * the floor's normal when the server found one. Loaded with this screen only,
 * so three.js stays out of every other screen's JavaScript.
 */
export default function PointCloudView({ plyUrl, pathUrl, label }: Props) {
  const { t, i18n } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<State>({ kind: 'loading', percent: 0 });
  const api = useRef<{ top(): void; reset(): void } | null>(null);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let renderer: THREE.WebGLRenderer;
    try {
      renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    } catch {
      setState({ kind: 'no-webgl' });
      return;
    }
    let disposed = false;
    setState({ kind: 'loading', percent: 0 });
    renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    const scene = new THREE.Scene();
    scene.background = new THREE.Color(0x1b1f24);
    const camera = new THREE.PerspectiveCamera(55, 1, 0.01, 10_000);
    const controls = new OrbitControls(camera, renderer.domElement);
    controls.enableDamping = true;
    controls.listenToKeyEvents(el);
    renderer.domElement.style.display = 'block';
    renderer.domElement.setAttribute('aria-hidden', 'true');
    el.appendChild(renderer.domElement);
    const group = new THREE.Group();
    scene.add(group);
    const disposables: { dispose(): void }[] = [];
    let radius = 10;
    const centre = new THREE.Vector3();

    const resize = () => {
      const w = el.clientWidth || 300;
      const h = el.clientHeight || 200;
      renderer.setSize(w, h, false);
      renderer.domElement.style.width = '100%';
      renderer.domElement.style.height = '100%';
      camera.aspect = w / h;
      camera.updateProjectionMatrix();
    };
    const observer = new ResizeObserver(resize);
    observer.observe(el);
    resize();

    const view = (top: boolean) => {
      controls.target.copy(centre);
      const d = radius * (top ? 2.2 : 1.8);
      if (top) camera.position.set(centre.x, centre.y + d, centre.z + 1e-3 * d);
      else camera.position.set(centre.x + d * 0.6, centre.y + d * 0.6, centre.z + d * 0.6);
      camera.near = radius / 1000;
      camera.far = radius * 100;
      camera.updateProjectionMatrix();
      controls.update();
    };
    api.current = { top: () => view(true), reset: () => view(false) };

    // The reconstruction's frame is arbitrary: turn the floor's normal to three's +y.
    const orient = (up: [number, number, number] | null) => {
      if (!up) return;
      const v = new THREE.Vector3(...up).normalize();
      if (v.lengthSq() > 0) group.quaternion.setFromUnitVectors(v, new THREE.Vector3(0, 1, 0));
    };

    const frame = () => {
      const box = new THREE.Box3().setFromObject(group);
      if (box.isEmpty()) return;
      const sphere = box.getBoundingSphere(new THREE.Sphere());
      radius = Math.max(sphere.radius, 1e-3);
      centre.copy(sphere.center);
      view(false);
    };

    const addPath = (path: VideoCameraPath) => {
      orient(path.up);
      const pts = path.cameras.map((c) => new THREE.Vector3(...c.position));
      if (pts.length === 0) return;
      const lineGeo = new THREE.BufferGeometry().setFromPoints(pts);
      const lineMat = new THREE.LineBasicMaterial({ color: 0x3d8bfd });
      const dotMat = new THREE.PointsMaterial({ color: 0x3d8bfd, size: 8, sizeAttenuation: false });
      const dotGeo = new THREE.BufferGeometry().setFromPoints(pts);
      disposables.push(lineGeo, lineMat, dotMat, dotGeo);
      group.add(new THREE.Line(lineGeo, lineMat), new THREE.Points(dotGeo, dotMat));
    };

    const pathLoad = pathUrl
      ? fetch(pathUrl)
          .then((r) => (r.ok ? (r.json() as Promise<VideoCameraPath>) : null))
          .catch(() => null)
      : Promise.resolve(null);

    new PLYLoader().load(
      plyUrl,
      (geometry) => {
        if (disposed) return geometry.dispose();
        const material = new THREE.PointsMaterial({ size: 2, sizeAttenuation: false, vertexColors: geometry.hasAttribute('color') });
        if (!geometry.hasAttribute('color')) material.color.set(0xcccccc);
        disposables.push(geometry, material);
        group.add(new THREE.Points(geometry, material));
        void pathLoad.then((path) => {
          if (disposed) return;
          if (path) addPath(path);
          frame();
          setState({ kind: 'ready', points: geometry.getAttribute('position').count });
        });
      },
      (e) => !disposed && e.total && setState({ kind: 'loading', percent: Math.round((e.loaded / e.total) * 100) }),
      (err) => !disposed && setState({ kind: 'error', message: err instanceof Error ? err.message : String(err) }),
    );

    renderer.setAnimationLoop(() => {
      controls.update();
      renderer.render(scene, camera);
    });

    return () => {
      disposed = true;
      api.current = null;
      observer.disconnect();
      renderer.setAnimationLoop(null);
      controls.dispose();
      for (const d of disposables) d.dispose();
      renderer.dispose();
      renderer.domElement.remove();
    };
  }, [plyUrl, pathUrl]);

  return (
    <div>
      <div className="d-flex flex-wrap gap-2 mb-2">
        <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => api.current?.top()} disabled={state.kind !== 'ready'}>
          <i className="bi bi-arrow-down-square me-1" aria-hidden="true" />
          {t('View from above')}
        </button>
        <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => api.current?.reset()} disabled={state.kind !== 'ready'}>
          <i className="bi bi-box me-1" aria-hidden="true" />
          {t('Reset the view')}
        </button>
        <span className="small text-body-secondary align-self-center ms-auto" data-testid="point-cloud-status" aria-live="polite">
          {state.kind === 'loading' && t('Loading the point cloud… {percent}%', { percent: formatNumber(state.percent, i18n.language) })}
          {state.kind === 'ready' && t('{n} points', { count: state.points, n: formatNumber(state.points, i18n.language) })}
        </span>
      </div>
      <div
        ref={host}
        className="sw-point-cloud"
        tabIndex={0}
        role="img"
        aria-label={`${label}. ${t('Drag to turn, scroll to zoom; with the keyboard, the arrow keys move the view.')}`}
        data-testid="point-cloud"
        data-state={state.kind}
      >
        {state.kind === 'no-webgl' && <p className="p-3 mb-0 text-light">{t('The 3D preview needs WebGL, which this browser does not offer.')}</p>}
        {state.kind === 'error' && (
          <p className="p-3 mb-0 text-light" role="alert">
            {t('The point cloud could not be loaded.')}
          </p>
        )}
      </div>
    </div>
  );
}
