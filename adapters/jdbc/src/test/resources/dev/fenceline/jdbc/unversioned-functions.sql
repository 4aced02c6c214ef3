CREATE OR REPLACE FUNCTION fenceline_begin( p_destination VARCHAR, p_resource VARCHAR, p_operation VARCHAR, p_epoch BIGINT, p_issuer VARCHAR, p_fingerprint VARCHAR, p_register BOOLEAN, p_lock_timeout VARCHAR, p_statement_timeout VARCHAR) RETURNS TABLE (o_status VARCHAR, o_epoch BIGINT, o_issuer VARCHAR, o_now_ms BIGINT, o_rec_epoch BIGINT, o_rec_at_ms BIGINT, o_rec_attributes TEXT, o_rec_fingerprint VARCHAR) LANGUAGE plpgsql AS $$
DECLARE v_found BOOLEAN := false;
BEGIN
  IF p_statement_timeout IS NOT NULL THEN
    PERFORM set_config('statement_timeout', p_statement_timeout, true);
  END IF;
  PERFORM set_config('lock_timeout', p_lock_timeout, true);
  SELECT r.epoch, r.issuer INTO o_epoch, o_issuer FROM fenceline_resource r
    WHERE r.resource = p_resource FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO fenceline_resource (resource, epoch) VALUES (p_resource, 0)
      ON CONFLICT (resource) DO NOTHING;
    SELECT r.epoch, r.issuer INTO STRICT o_epoch, o_issuer FROM fenceline_resource r
      WHERE r.resource = p_resource FOR UPDATE;
  END IF;
  o_now_ms := CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT);
  IF o_issuer IS NOT NULL AND o_issuer <> p_issuer THEN
    o_status := 'foreign'; RETURN NEXT; RETURN;
  END IF;
  IF p_epoch < o_epoch THEN
    o_status := 'stale'; RETURN NEXT; RETURN;
  END IF;
  IF p_operation IS NOT NULL THEN
    SELECT o.epoch, o.recorded_at_ms, o.attributes, o.fingerprint
      INTO o_rec_epoch, o_rec_at_ms, o_rec_attributes, o_rec_fingerprint
      FROM fenceline_operation o WHERE o.destination = p_destination
      AND o.resource = p_resource AND o.operation = p_operation;
    v_found := FOUND;
    IF v_found AND p_fingerprint IS NOT NULL AND o_rec_fingerprint IS NOT NULL
        AND p_fingerprint <> o_rec_fingerprint THEN
      o_status := 'conflict'; RETURN NEXT; RETURN;
    END IF;
  END IF;
  IF p_register AND (p_epoch > o_epoch OR o_issuer IS NULL) THEN
    UPDATE fenceline_resource SET epoch = p_epoch, issuer = p_issuer
      WHERE resource = p_resource;
  END IF;
  o_status := CASE WHEN v_found THEN 'replay' ELSE 'proceed' END;
  RETURN NEXT;
END $$
;;;
CREATE OR REPLACE FUNCTION fenceline_publish_pointer( p_destination VARCHAR, p_resource VARCHAR, p_operation VARCHAR, p_epoch BIGINT, p_issuer VARCHAR, p_fingerprint VARCHAR, p_lock_timeout VARCHAR, p_target TEXT, p_pointer_attributes TEXT, p_receipt_attributes TEXT) RETURNS TABLE (o_status VARCHAR, o_epoch BIGINT, o_issuer VARCHAR, o_now_ms BIGINT, o_rec_epoch BIGINT, o_rec_at_ms BIGINT, o_rec_attributes TEXT, o_rec_fingerprint VARCHAR, o_version BIGINT) LANGUAGE plpgsql AS $$
DECLARE v_found BOOLEAN := false;
BEGIN
  PERFORM set_config('lock_timeout', p_lock_timeout, true);
  SELECT r.epoch, r.issuer INTO o_epoch, o_issuer FROM fenceline_resource r
    WHERE r.resource = p_resource FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO fenceline_resource (resource, epoch) VALUES (p_resource, 0)
      ON CONFLICT (resource) DO NOTHING;
    SELECT r.epoch, r.issuer INTO STRICT o_epoch, o_issuer FROM fenceline_resource r
      WHERE r.resource = p_resource FOR UPDATE;
  END IF;
  o_now_ms := CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT);
  IF o_issuer IS NOT NULL AND o_issuer <> p_issuer THEN
    o_status := 'foreign'; RETURN NEXT; RETURN;
  END IF;
  IF p_epoch < o_epoch THEN
    o_status := 'stale'; RETURN NEXT; RETURN;
  END IF;
  IF p_operation IS NOT NULL THEN
    SELECT o.epoch, o.recorded_at_ms, o.attributes, o.fingerprint
      INTO o_rec_epoch, o_rec_at_ms, o_rec_attributes, o_rec_fingerprint
      FROM fenceline_operation o WHERE o.destination = p_destination
      AND o.resource = p_resource AND o.operation = p_operation;
    v_found := FOUND;
    IF v_found AND p_fingerprint IS NOT NULL AND o_rec_fingerprint IS NOT NULL
        AND p_fingerprint <> o_rec_fingerprint THEN
      o_status := 'conflict'; RETURN NEXT; RETURN;
    END IF;
  END IF;
  IF true AND (p_epoch > o_epoch OR o_issuer IS NULL) THEN
    UPDATE fenceline_resource SET epoch = p_epoch, issuer = p_issuer
      WHERE resource = p_resource;
  END IF;
  o_status := CASE WHEN v_found THEN 'replay' ELSE 'proceed' END;
  IF o_status = 'proceed' THEN
    SELECT COALESCE(MAX(p.version), 0) + 1 INTO o_version FROM fenceline_pointer p
      WHERE p.destination = p_destination AND p.resource = p_resource;
    INSERT INTO fenceline_pointer
      (destination, resource, version, target, attributes, epoch, operation)
      VALUES (p_destination, p_resource, o_version, p_target, p_pointer_attributes,
      p_epoch, p_operation);
    INSERT INTO fenceline_operation (destination, resource, operation, epoch,
      recorded_at_ms, attributes, fingerprint) VALUES (p_destination, p_resource,
      p_operation, p_epoch, o_now_ms, p_receipt_attributes, p_fingerprint);
    o_status := 'applied';
  END IF;
  RETURN NEXT;
END $$
;;;
CREATE OR REPLACE FUNCTION fenceline_acquire( p_resource VARCHAR, p_holder VARCHAR, p_ttl_ms BIGINT, p_lock_timeout VARCHAR) RETURNS TABLE (o_epoch BIGINT, o_expires_at_ms BIGINT) LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('lock_timeout', p_lock_timeout, true);
  RETURN QUERY INSERT INTO fenceline_lease AS l (resource, epoch, holder, expires_at_ms) VALUES (p_resource, 1, p_holder, CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) + p_ttl_ms) ON CONFLICT (resource) DO UPDATE SET epoch = l.epoch + 1, holder = excluded.holder, expires_at_ms = CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) + p_ttl_ms WHERE l.holder IS NULL OR l.expires_at_ms <= CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) RETURNING epoch, expires_at_ms;
END $$
;;;
CREATE OR REPLACE FUNCTION fenceline_renew( p_resource VARCHAR, p_epoch BIGINT, p_holder VARCHAR, p_ttl_ms BIGINT, p_lock_timeout VARCHAR) RETURNS TABLE (o_expires_at_ms BIGINT) LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('lock_timeout', p_lock_timeout, true);
  RETURN QUERY UPDATE fenceline_lease SET expires_at_ms = CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) + p_ttl_ms WHERE resource = p_resource AND epoch = p_epoch AND holder = p_holder AND expires_at_ms > CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) RETURNING expires_at_ms;
END $$
;;;
CREATE OR REPLACE FUNCTION fenceline_release( p_resource VARCHAR, p_epoch BIGINT, p_holder VARCHAR, p_lock_timeout VARCHAR) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('lock_timeout', p_lock_timeout, true);
  UPDATE fenceline_lease SET holder = NULL, expires_at_ms = 0 WHERE resource = p_resource AND epoch = p_epoch AND holder = p_holder;
  RETURN FOUND;
END $$