package io.trimus.events;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/** The issue a run works on, as the API client gave it; every field may be absent. */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record IssueRef(String id, String title, String body) {
}
