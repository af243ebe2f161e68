export { ALL_PRIVILEGES, Privilege, hasAnyPrivilege, requirePrivilege } from './privileges';
