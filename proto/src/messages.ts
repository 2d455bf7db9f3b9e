/**
 * The message catalogue of SPEC §8, quoted exactly. The client falls back to
 * these when the server gives no message; the server uses HTTP_DEFAULTS.
 */
export const MESSAGES = {
  // Authentication and account
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  activateFailed: 'Failed to activate account',
  invitationTokenFailed: 'Failed to validate invitation token',
  recoveryFailed: 'Password recovery failed',
  resetFailed: 'Password reset failed',
  changePasswordFailed: 'Failed to change password',
  tokenValidationFailed: 'Token validation failed',
  // Uploads
  uploadVideoFailed: 'Failed to upload video',
  uploadAvatarFailed: 'Failed to upload avatar',
  uploadCoverFailed: 'Failed to upload cover',
  uploadPdfFailed: 'Failed to upload PDF',
  uploadFileFailed: 'Failed to upload file',
  // Fetching
  fetchProjectsFailed: 'Failed to fetch projects',
  fetchVisitsFailed: 'Failed to fetch visits',
  fetchPlansFailed: 'Failed to fetch plans',
  fetchTiersFailed: 'Failed to fetch tiers',
  fetchNotificationsFailed: 'Failed to fetch notifications',
  // Invitations and join requests
  sendInvitationFailed: 'Failed to send invitation',
  cancelInvitationFailed: 'Failed to cancel invitation',
  sendJoinRequestFailed: 'Failed to send join request',
  // Video processing
  processVideoFailed: 'Failed to process video',
  generatePlyFailed: 'Failed to generate PLY file',
  projectPointsFailed: 'Failed to project points',
  // Design-file cloud
  adskAuthUrlFailed: 'Failed to get Autodesk auth URL',
  adskManifestFailed: 'Failed to get model manifest',
  adskHubsFailed: 'Failed to get Autodesk hubs',
  adskProjectsFailed: 'Failed to get Autodesk projects',
  adskSheetsFailed: 'Failed to get project sheets',
  adskFoldersFailed: 'Failed to get project folders',
  adskConnectFailed: 'Failed to connect to Autodesk',
  adskDisconnectFailed: 'Failed to disconnect from Autodesk',
  adskDisconnected: 'Successfully disconnected from Autodesk',
  adskCheckFailed: 'Failed to check Autodesk authentication status',
  adskRefreshFailed: 'Failed to refresh Autodesk token',
  // Billing
  fetchBillingFailed: 'Failed to fetch billing information',
  fetchInvoicesFailed: 'Failed to fetch invoices',
  markInvoicePaidFailed: 'Failed to mark invoice as paid',
  fetchInvoiceFailed: 'Failed to fetch invoice details',
  deleteInvoiceFailed: 'Failed to delete invoice',
  // Auth load errors
  missingAuthData: 'Missing authentication data',
  invalidExpiry: 'Invalid expiry time',
  tokenExpiredRefreshFailed: 'Token expired and refresh failed',
  loginStoreFailed: 'Failed to complete login process',
  invalidUserData: 'Invalid user data format',
  // Validation (SPEC §5)
  projectIdRequired: 'Project ID is required',
  visitIdRequired: 'Visit ID is required',
  firstNameRequired: 'First name is required',
  emailRequired: 'Email is required',
  invalidEmail: 'Invalid email format',
  // Forms
  noUserId: 'No user ID available.',
  profileUpdated: 'Profile updated successfully!',
  preferencesUpdated: 'Notification preferences updated successfully!',
  profileUpdateFailed: 'Failed to update profile',
  preferencesUpdateFailed: 'Failed to update notification preferences',
  errorLoadingUser: 'Error loading user data.',
  updateFailed: 'Update failed.',
  // Other
  somethingWentWrong: 'Something went wrong. Please refresh.',
  translationsFailed: 'Failed to load translations',
  cssFailed: 'Failed to load CSS file',
  loading: 'Loading...',
  logoutTitle: 'Ready to Leave?',
  logoutText: 'Select "Logout" below if you are ready to end your current session.',
  tourCancelConfirm: 'Are you sure you want to stop the tour?',
  // A dependency (database, Redis) is briefly away: the server answers 503 with this.
  serviceBrieflyUnavailable: 'The server is briefly unavailable while it reconnects. Please try again in a few seconds.',
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** Form messages of SPEC §8 "Forms", for an entity label such as 'Project'. */
export const formMessages = (entity: string) => ({
  nameRequired: `${entity} name is required`,
  createFailed: `Failed to create ${entity}`,
  updateFailed: `Failed to update ${entity}`,
  deleteFailed: `Failed to delete ${entity}`,
  loadFailed: `Error loading ${entity} data`,
  created: `${entity} created successfully!`,
  updated: `${entity} updated successfully!`,
  deleted: `${entity} deleted successfully!`,
});

export const settingsLoadError = (message: string) => `Error loading settings: ${message}`;

/** Messages the server sends when a handler gives none, by HTTP status. */
export const HTTP_DEFAULTS: Record<number, string> = {
  400: 'The request is not valid.',
  401: 'Please sign in to continue.',
  403: 'You are not allowed to do this.',
  404: 'Not found.',
  409: 'This conflicts with something that already exists.',
  413: 'The upload is too large.',
  415: 'This type of file is not accepted.',
  419: 'Your session page expired. Reload the page and try again.',
  422: 'The data could not be processed.',
  429: 'Too many attempts. Please wait a moment and try again.',
  500: 'Something went wrong on our side. Please try again later.',
  503: 'The service is temporarily unavailable. Please try again shortly.',
};
