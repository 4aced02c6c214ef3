package dev.fenceline.http;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Sends one HTTP attempt and hands back the answer, or says whether a failed attempt may have
 * reached the API. The only place that sees the bearer token: it adds the {@code Authorization}
 * header and {@linkplain #redact removes} the token from any text the API sends back, so it never
 * reaches a message or a log. Kept small and mode-neutral so the intent mode's sender can be folded
 * into it.
 */
final class HttpSender {

  /** One answer: status, headers and the whole body (API answers here are small JSON documents). */
  record Response(int status, java.net.http.HttpHeaders headers, byte[] body) {
    Optional<String> header(String name) {
      return headers.firstValue(name);
    }
  }

  /** An attempt that got no answer. */
  static final class NoAnswer extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean mayHaveArrived;

    NoAnswer(String reason, Throwable cause, boolean mayHaveArrived) {
      super(reason, cause);
      this.mayHaveArrived = mayHaveArrived;
    }

    /** False only when the request certainly never reached the API (the connection failed). */
    boolean mayHaveArrived() {
      return mayHaveArrived;
    }
  }

  private final HttpClient client;
  private final Duration attemptTimeout;
  private final Optional<String> bearerToken;

  HttpSender(HttpClient client, Duration attemptTimeout, Optional<String> bearerToken) {
    this.client = requireNonNull(client, "client is null");
    this.attemptTimeout = requireNonNull(attemptTimeout, "attemptTimeout is null");
    this.bearerToken = requireNonNull(bearerToken, "bearerToken is null");
  }

  /**
   * Sends one attempt within the attempt timeout.
   *
   * @throws NoAnswer on a connection failure, an I/O error, a timeout or an interrupt (the
   *     interrupt flag is kept)
   */
  Response send(String method, URI uri, Map<String, String> headers, HttpRequest.BodyPublisher body)
      throws NoAnswer {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri).timeout(attemptTimeout).method(method, body);
    headers.forEach(request::header);
    bearerToken.ifPresent(token -> request.header("Authorization", "Bearer " + token));
    try {
      HttpResponse<byte[]> response =
          client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      return new Response(response.statusCode(), response.headers(), response.body());
    } catch (HttpConnectTimeoutException | ConnectException e) {
      throw new NoAnswer("the connection failed (" + describe(e) + ")", e, false);
    } catch (java.net.http.HttpTimeoutException e) {
      throw new NoAnswer("no answer within the attempt timeout of " + attemptTimeout, e, true);
    } catch (IOException e) {
      throw new NoAnswer("the exchange failed (" + describe(e) + ")", e, true);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NoAnswer("the calling thread was interrupted while waiting", e, true);
    }
  }

  /** {@code text} with every occurrence of the bearer token replaced by {@code ***}. */
  String redact(String text) {
    if (bearerToken.isEmpty() || text == null) {
      return text;
    }
    return text.replace(bearerToken.get(), "***");
  }

  private String describe(Throwable e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + redact(message));
  }
}
