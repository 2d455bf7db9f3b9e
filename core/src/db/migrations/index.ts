import type { Knex } from 'knex';
import * as platform from './20261122_0001_platform.js';
import * as projects from './20261122_0100_projects.js';
import * as encryptSettings from './20261124_0150_encrypt_settings.js';
import * as visits from './20261126_0200_visits.js';
import * as videos from './20261126_0300_videos.js';
import * as annotations from './20261126_0400_annotations.js';
import * as annotationExports from './20261126_0410_annotation_exports.js';
import * as teams from './20261126_0500_teams.js';
import * as plans from './20261126_0510_plans.js';
import * as designCloud from './20261126_0600_design_cloud.js';
import * as planLimits from './20261127_0700_plan_limits.js';
import * as billing from './20261128_1000_billing.js';
import * as videoUploads from './20261128_1300_video_uploads.js';
import * as videoUploadBucket from './20261130_0700_video_upload_bucket.js';
import * as apiKeys from './20261129_0300_api_keys.js';
import * as notificationKeys from './20261129_0500_notification_keys.js';
import * as socialSignIn from './20261129_0400_social_sign_in.js';
import * as twoFactor from './20261129_0200_two_factor.js';
import * as invitations from './20261129_0600_invitations.js';

/**
 * Every migration, in order. Listed here (not discovered on disk) so they run
 * the same under tsx, vitest and a bundler. Add new ones at the end.
 */
export const MIGRATIONS: Record<string, { up: (k: Knex) => Promise<void>; down: (k: Knex) => Promise<void> }> = {
  '20261122_0001_platform': platform,
  '20261122_0100_projects': projects,
  '20261124_0150_encrypt_settings': encryptSettings,
  '20261126_0200_visits': visits,
  '20261126_0300_videos': videos,
  '20261126_0400_annotations': annotations,
  '20261126_0410_annotation_exports': annotationExports,
  '20261126_0500_teams': teams,
  '20261126_0510_plans': plans,
  '20261126_0600_design_cloud': designCloud,
  '20261127_0700_plan_limits': planLimits,
  '20261128_1000_billing': billing,
  '20261128_1300_video_uploads': videoUploads,
  '20261129_0200_two_factor': twoFactor,
  '20261129_0300_api_keys': apiKeys,
  '20261129_0400_social_sign_in': socialSignIn,
  '20261129_0500_notification_keys': notificationKeys,
  '20261129_0600_invitations': invitations,
  '20261130_0700_video_upload_bucket': videoUploadBucket,
};
