/** Who is calling, as decided by authentication for this one request. */
export interface Actor {
  /** `urn:li:corpuser:<id>` */
  urn: string;
  /** The platform privileges the actor holds right now (resolved per request from its current role). */
  privileges: ReadonlySet<string>;
}

/** The context every GraphQL resolver and operations action receives. */
export interface ApiContext {
  actor: Actor;
  requestId: string;
}
