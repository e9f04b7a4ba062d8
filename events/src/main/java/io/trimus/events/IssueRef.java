package io.trimus.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * The issue a run works on, as the API client gave it; every field may be absent. Unlike the event records it
 * does not ignore unknown fields: run-service also reads it as part of a request body, where a misspelt field
 * must be refused, so a field added here is an API change as well as an event change.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record IssueRef(String id, String title, String body) {
}
