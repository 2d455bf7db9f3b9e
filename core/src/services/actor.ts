/** Who makes a call, as every rule of the services needs it: the signed-in user (or API key owner). */
export interface Actor {
  id: number;
  super_admin: boolean;
}
