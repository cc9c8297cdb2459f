// Starts Innkeep: `npm start`, or `node src/main.ts`. Reads the environment once, brings the database up to
// date, seeds the demo account on the first start when DEMO_DATA is on, and listens until SIGINT or SIGTERM,
// then finishes the requests in flight and stops (see startService).
import { demoLogin } from '@innkeep/demo';
import { systemClock } from '@innkeep/domain';
import { readConfigOrExit, startService } from '@innkeep/service-host';
import { createPostgresDomain } from '@innkeep/storage';
import { buildApp } from './app.ts';
import { startCalendarImportJob } from './calendar-import-job.ts';
import { loadConfig } from './config.ts';
import { hostToolsWebhookDocuments } from './host-tools-webhook-documents.ts';
import { startHousekeepingJob } from './housekeeping-job.ts';
import { startMessageDeliveryJob } from './message-delivery-job.ts';
import { startMessageRuleJob } from './message-rule-job.ts';
import { prepareServer } from './prepare-server.ts';
import { startWebhookDeliveryJob } from './webhook-delivery-job.ts';

const config = readConfigOrExit(() => loadConfig(process.env));

await startService({
  name: 'Innkeep',
  config,
  buildApp: ({ database, redis, metrics, isDraining, authNotifications }) =>
    buildApp({
      database,
      clock: systemClock,
      logLevel: config.logLevel,
      baseUrl: config.baseUrl,
      secretKeys: config.secretKeys.keys,
      signingKeys: [config.oidcSigningKey.key],
      trustProxy: config.trustProxy,
      redis,
      mcpAllowedOrigins: config.mcpAllowedOrigins,
      mcpRateLimit: config.mcpRateLimit,
      restRateLimits: { perCredential: config.restRateLimit, withApiKey: config.restPartnerRateLimit },
      registrationRateLimit: config.registrationRateLimit,
      authNotifications,
      isDraining,
      metrics,
      emailDelivery: config.emailDelivery,
    }),
  prepare: (app, { database }) => prepareServer(config, database, app.log),
  startJobs: (app, { database, metrics }) => {
    const jobs: { name: string; stop: () => Promise<void> }[] = [];
    if (config.messageRules) {
      const job = startMessageRuleJob({
        db: database.db,
        clock: systemClock,
        emailDelivery: config.emailDelivery,
        log: app.log,
        onRun: (run) => metrics?.recordJobRun({ job: 'message-rules', ...run }),
      });
      jobs.push({ name: 'the message rule job', stop: job.stop });
    }
    if (config.webhooks) {
      const job = startWebhookDeliveryJob({
        db: database.db,
        clock: systemClock,
        log: app.log,
        hostToolsBody: hostToolsWebhookDocuments({
          domain: createPostgresDomain({ db: database.db, clock: systemClock }),
          clock: systemClock,
        }),
        allowPrivate: config.webhookAllowPrivate,
        onRun: (run) => metrics?.recordJobRun({ job: 'webhooks', ...run }),
      });
      jobs.push({ name: 'the webhook delivery job', stop: job.stop });
    }
    // Only with SMTP_URL: without it nothing is ever queued (messages are stored not_delivered).
    if (config.mail !== undefined) {
      const job = startMessageDeliveryJob({
        db: database.db,
        clock: systemClock,
        log: app.log,
        mail: config.mail,
        onRun: (run) => metrics?.recordJobRun({ job: 'message-delivery', ...run }),
      });
      jobs.push({ name: 'the message delivery job', stop: job.stop });
    }
    if (config.calendarImports) {
      const job = startCalendarImportJob({
        db: database.db,
        clock: systemClock,
        log: app.log,
        pollIntervalMinutes: config.calendarImportIntervalMinutes,
        allowPrivate: config.calendarImportAllowPrivate,
        onRun: (run) => metrics?.recordJobRun({ job: 'calendar-imports', ...run }),
      });
      jobs.push({ name: 'the calendar import job', stop: job.stop });
    }
    // Every instance runs it; the lock lets one at a time do the work, so no switch turns it off.
    const housekeeping = startHousekeepingJob({
      db: database.db,
      clock: systemClock,
      log: app.log,
      eventRetentionDays: config.webhookEventRetentionDays,
      onRun: (run) => metrics?.recordJobRun({ job: 'housekeeping', ...run }),
    });
    jobs.push({ name: 'the housekeeping job', stop: housekeeping.stop });
    return jobs;
  },
  announcement: [
    `Innkeep is running at ${config.baseUrl}`,
    ...(config.demoData ? [`Demo login: ${demoLogin.email} / ${demoLogin.password} (demo mode only)`] : []),
  ],
});
