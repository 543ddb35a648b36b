export { tickets, TICKETS } from './tickets.js';
export { TicketRef } from './ticketRef.js';
export { TicketsConfigSchema, type TicketsConfig } from './ticketsConfig.js';
