-- A Fenceline database of schema version 4, written by the build of commit 0593bd3 (SQLite,
-- then sqlite3 .dump): pointer store 'reports' published day-1..day-3 (epochs 3, 3, 4), pruned
-- to 2 pointer versions (day-1's receipt outlives its version); destination 'ledgers' wrote 'old'
-- (pruned: the watermark) and day-1; intent store 'payments' began pay-1; lease 'nightly'.
CREATE TABLE fenceline_schema (version INTEGER NOT NULL);
INSERT INTO fenceline_schema VALUES(4);
CREATE TABLE fenceline_issuer (id VARCHAR(100) NOT NULL);
INSERT INTO fenceline_issuer VALUES('jdbc-75ff8c2a-670e-434d-8352-442b3b24cfc1');
CREATE TABLE fenceline_lease ( resource VARCHAR(200) PRIMARY KEY, epoch BIGINT NOT NULL, holder VARCHAR(200), expires_at_ms BIGINT NOT NULL);
INSERT INTO fenceline_lease VALUES('nightly',1,'cron',1796640862106);
CREATE TABLE fenceline_resource ( resource VARCHAR(200) PRIMARY KEY, epoch BIGINT NOT NULL, issuer VARCHAR(100));
INSERT INTO fenceline_resource VALUES('report',4,'jdbc-75ff8c2a-670e-434d-8352-442b3b24cfc1');
INSERT INTO fenceline_resource VALUES('ledger',7,'jdbc-75ff8c2a-670e-434d-8352-442b3b24cfc1');
CREATE TABLE fenceline_operation ( destination VARCHAR(64) NOT NULL, resource VARCHAR(200) NOT NULL, operation VARCHAR(200) NOT NULL, epoch BIGINT NOT NULL, recorded_at_ms BIGINT NOT NULL, attributes TEXT NOT NULL, fingerprint VARCHAR(80), PRIMARY KEY (destination, resource, operation));
INSERT INTO fenceline_operation VALUES('reports','report','day-1',3,1796640802051,'sha256=aa&target=v1','sha256:b4a697ec0b587c2b265621d76d7458b8a3defc83f2cac1c61ca9369ab4b07f98');
INSERT INTO fenceline_operation VALUES('reports','report','day-2',3,1796640802077,'sha256=bb&target=v2','sha256:c378d634a0b2319635b4c003ed25edf975a8970e55884111d25e135cd16b77b2');
INSERT INTO fenceline_operation VALUES('reports','report','day-3',4,1796640802081,'sha256=cc&target=v3','sha256:9cb51848054b42e22d1c0eafd774a711c3d50dd83783a436218f5857425960d0');
INSERT INTO fenceline_operation VALUES('ledgers','ledger','day-1',7,1796640802090,'rows=2','sha256:1be3f4b7d687ba825c305e9c8fc8aabdf804ae9685e2ca86b67477f9628553f9');
CREATE TABLE fenceline_pointer ( destination VARCHAR(64) NOT NULL, resource VARCHAR(200) NOT NULL, version BIGINT NOT NULL, target TEXT NOT NULL, attributes TEXT NOT NULL, epoch BIGINT NOT NULL, operation VARCHAR(200) NOT NULL, PRIMARY KEY (destination, resource, version));
INSERT INTO fenceline_pointer VALUES('reports','report',2,'v2','sha256=bb',3,'day-2');
INSERT INTO fenceline_pointer VALUES('reports','report',3,'v3','sha256=cc',4,'day-3');
CREATE TABLE fenceline_intent ( destination VARCHAR(64) NOT NULL, resource VARCHAR(200) NOT NULL, operation VARCHAR(200) NOT NULL, fingerprint VARCHAR(80) NOT NULL, epoch BIGINT NOT NULL, attempts INTEGER NOT NULL, recorded_at_ms BIGINT NOT NULL, receipt_epoch BIGINT, receipt_recorded_at_ms BIGINT, receipt_attributes TEXT, PRIMARY KEY (destination, resource, operation));
INSERT INTO fenceline_intent VALUES('payments','ledger','pay-1','sha256:0da3174c441a36c80c2ecf4b09fc7fa41ce12ee6433d96db3709dd3b0a5325ab',7,1,1796640802096,NULL,NULL,NULL);
CREATE TABLE fenceline_pruned ( destination VARCHAR(64) NOT NULL, resource VARCHAR(200) NOT NULL, pruned_before_ms BIGINT NOT NULL, PRIMARY KEY (destination, resource));
INSERT INTO fenceline_pruned VALUES('ledgers','ledger',1796554402113);
CREATE INDEX fenceline_operation_recorded_at ON fenceline_operation (recorded_at_ms);
