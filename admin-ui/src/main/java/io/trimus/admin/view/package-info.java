/**
 * What the templates show: the checked templates, one small record per page or part of a page, and the helpers that
 * put backend answers into words, times and charts. Entry point: {@link io.trimus.admin.view.Templates}. May read the
 * clients' records; never imports {@code auth}, {@code messaging} or {@code rest}.
 */
package io.trimus.admin.view;
