import { planPdf, PAPER } from '../../workers/test/pdf-fixtures.js';
import type { StandInHub } from './adsk-stand-in.js';

/** The client id and secret the stand-in accepts in tests. */
export const ADSK_CLIENT = 'sitewalk-test-client';
export const ADSK_SECRET = 'sitewalk-test-secret';

/** Small real PDFs: `pages` A6 pages each. */
export const pdf = (pages = 1) => planPdf(Array.from({ length: pages }, () => ({ size: PAPER.A6 })));

/**
 * The Autodesk account the tests browse: three projects in the first hub
 * (more than one page of two), folders within folders, PDFs and a model
 * with two 2D views. No server module is imported here, so the e2e setup
 * can start the stand-in before SiteWalk reads its configuration.
 */
export async function sampleHubs(): Promise<StandInHub[]> {
  return [
    {
      name: 'Acme Construction',
      projects: [
        {
          name: 'Tower A',
          sheets: [
            { number: 'A-101', title: 'Ground floor' },
            { number: 'A-102', title: 'First floor' },
            { number: 'A-103', title: 'Roof' },
          ],
          folders: [
            {
              name: 'Project Files',
              files: [{ name: 'A-101 Plans.pdf', kind: 'pdf', versions: [await pdf(2)] }],
              folders: [{ name: 'Models', files: [{ name: 'Tower.rvt', kind: 'rvt', versions: [{ 'A-201 Level 1': await pdf(1), 'A-202 Level 2': await pdf(1) }] }] }],
            },
          ],
        },
        {
          name: 'Tower B',
          folders: [
            {
              name: 'Project Files',
              files: [
                { name: 'B-1.pdf', kind: 'pdf', versions: [await pdf(1)] },
                { name: 'B-2.pdf', kind: 'pdf', versions: [await pdf(1)] },
                { name: 'B-3.pdf', kind: 'pdf', versions: [await pdf(1), await pdf(1)] },
              ],
            },
          ],
        },
        { name: 'Tower C', folders: [{ name: 'Project Files' }] },
      ],
    },
    { name: 'Beta Partners', projects: [{ name: 'Depot', folders: [{ name: 'Project Files' }] }] },
  ];
}
