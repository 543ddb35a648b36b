export { tickets, TICKETS } from './tickets.js';
export { ticketTool, TICKET_TOOL } from './ticketTool.js';
export { TicketRef } from './ticketRef.js';
export { TicketStoreKey, type TicketStore, type TicketPlace, type TicketText } from './ticketStore.js';
export { TicketsConfigSchema, type TicketsConfig } from './ticketsConfig.js';
