export { Subscribers } from './subscribers.js';
export type { SubscribersParts } from './subscribers.js';
export type {
  AttemptListOptions,
  BackoffOptions,
  DeadLetterListOptions,
  DeliveryContext,
  EventHandler,
  SubscribeOptions,
  Subscription,
} from './types.js';
export { HandlerTimeout } from './call-handler.js';
export { SubscriptionClaimLost } from './deliver-partition.js';
